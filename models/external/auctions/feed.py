"""Reading the payroll system's auction feed item by item: what it sends is distrusted like any
request. An item that cannot be read (missing field, a CPF that is not 11 digits, a name outside
the service's name rule, a balance that is not a finite amount in the column's range) is left out
with its reason, and the rest of the feed is still ingested: one bad item never stalls the others."""

from __future__ import annotations

import string
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from models.domain.person_name import person_name
from models.external.auctions.port import AuctionOffer

EXTERNAL_ID_MAX_LENGTH = 64  # the column's size (models/db/webhooks.py)
MAX_BALANCE = Decimal("999999999999.99")  # MoneyField: 14 digits, 2 after the point
MAX_INSTALLMENTS = 999
_ID_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-_.:")


@dataclass(frozen=True)
class FeedRead:
    offers: list[AuctionOffer]
    left_out: list[str]  # one line per item left out: its position, id when readable, and why


def read_feed(payload: object) -> FeedRead:
    """The offers of a decoded JSON feed (a list of items); raises ValueError when the feed itself
    is not a list."""
    if not isinstance(payload, list):
        raise ValueError("the auction feed is not a JSON list")
    offers: list[AuctionOffer] = []
    left_out: list[str] = []
    for position, item in enumerate(payload):
        try:
            offers.append(read_item(item))
        except ValueError as reason:
            ident = item.get("id") if isinstance(item, dict) else None
            shown = ident if isinstance(ident, str) and set(ident) <= _ID_CHARACTERS and len(ident) <= 64 else "?"
            left_out.append(f"item {position} (id {shown}): {reason}")
    return FeedRead(offers, left_out)


def read_item(item: object) -> AuctionOffer:
    """One feed item as an offer; ValueError names what is wrong with it."""
    if not isinstance(item, dict):
        raise ValueError("not a JSON object")
    external_id = _text(item, "id")
    if not 1 <= len(external_id) <= EXTERNAL_ID_MAX_LENGTH or not set(external_id) <= _ID_CHARACTERS:
        raise ValueError(f"id must be 1 to {EXTERNAL_ID_MAX_LENGTH} letters, digits or -_.:")
    document = _text(item, "document")
    if len(document) != 11 or not document.isascii() or not document.isdigit():
        raise ValueError("document must be 11 ASCII digits")
    name = person_name(item.get("name"))
    if name is None:
        raise ValueError("name is not a person's name of at most 200 characters")
    balance = _amount(item.get("available_balance"))
    installments = item.get("installment_quantity")
    if isinstance(installments, bool) or not isinstance(installments, int) or not 0 < installments <= MAX_INSTALLMENTS:
        raise ValueError(f"installment_quantity must be an integer from 1 to {MAX_INSTALLMENTS}")
    eligible = item.get("eligible", True)
    if not isinstance(eligible, bool):
        raise ValueError("eligible must be true or false")
    return AuctionOffer(external_id, document, name, balance, installments, eligible)


def _text(item: dict, key: str) -> str:
    value = item.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # ids and CPFs sent as JSON numbers
    if not isinstance(value, str):
        raise ValueError(f"{key} is missing or not a string")
    return value


def _amount(value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("available_balance must be a number")
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise ValueError("available_balance must be a number") from None
    if not amount.is_finite() or not Decimal(0) < amount <= MAX_BALANCE:
        raise ValueError(f"available_balance must be more than 0 and at most {MAX_BALANCE}")
    return amount.quantize(Decimal("0.01"))

"""Brazilian formatting of the values printed on the contract: the one place where numbers, dates
and documents become text for a reader in Brazil.

Money ``R$ 1.000,00``; rates ``1,99% a.m.`` / ``26,68% a.a.``; dates ``dd/mm/aaaa``; instants in
São Paulo local time (``horário de Brasília``); CPF ``123.456.789-09``; CNPJ
``12.345.678/0001-90``; branch and account with their check digit (``1234-5``, ``567890-1``).
Inputs are the raw values the contract terms keep (Decimal or decimal text, ISO dates); nothing
here rounds differently from the loan math: money is shown half up to the cent, as it is computed.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from models.domain.clock import to_local


def number(value, places: int = 2) -> str:
    """``1234567.891`` -> ``1.234.567,89`` (dot for thousands, comma for decimals, half up)."""
    quantum = Decimal(1).scaleb(-places)
    amount = Decimal(str(value)).quantize(quantum, rounding=ROUND_HALF_UP)
    text = f"{abs(amount):,.{places}f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return f"-{text}" if amount < 0 else text


def money(value) -> str:
    """``1000`` -> ``R$ 1.000,00``; a negative amount -> ``-R$ 1,00``."""
    return _money(str(value))


@lru_cache(maxsize=8192)  # a schedule repeats its installment; contracts repeat common amounts
def _money(value: str) -> str:
    text = number(value)
    return f"-R$ {text[1:]}" if text.startswith("-") else f"R$ {text}"


def percent(value, places: int = 2) -> str:
    """A percentage (``1.99``, not the ratio 0.0199) -> ``1,99%``."""
    return f"{number(value, places)}%"


def monthly_rate(value) -> str:
    """A monthly percentage -> ``1,99% a.m.``."""
    return f"{percent(value)} a.m."


def annual_rate(value) -> str:
    """An annual percentage -> ``26,68% a.a.``."""
    return f"{percent(value)} a.a."


def _as_date(value) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def day(value) -> str:
    """A date (or ISO ``YYYY-MM-DD`` text) -> ``dd/mm/aaaa``."""
    return _day(_as_date(value))


@lru_cache(maxsize=8192)  # due dates repeat across contracts
def _day(value: date) -> str:
    return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"


def instant(value) -> str:
    """An instant (aware datetime or ISO 8601 text with ``Z``) -> ``dd/mm/aaaa às hh:mm:ss`` in
    São Paulo local time, the legal time of the contract's place of issue."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return to_local(moment).strftime("%d/%m/%Y às %H:%M:%S")


def _digits(value) -> str:
    return "".join(ch for ch in str(value or "") if ch.isdigit())


def cpf(value) -> str:
    """``12345678909`` -> ``123.456.789-09``; anything that is not 11 digits is shown as given."""
    digits = _digits(value)
    if len(digits) != 11:
        return str(value or "")
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def cnpj(value) -> str:
    """``12345678000190`` -> ``12.345.678/0001-90``; anything that is not 14 digits is shown as given."""
    digits = _digits(value)
    if len(digits) != 14:
        return str(value or "")
    return f"{digits[:2]}.{digits[2:5]}.{digits[5:8]}/{digits[8:12]}-{digits[12:]}"


def with_digit(number_text, digit) -> str:
    """A branch or account number with its check digit: ``1234`` + ``5`` -> ``1234-5``
    (no digit: the number alone)."""
    base = str(number_text or "").strip()
    digit = str(digit or "").strip()
    return f"{base}-{digit}" if digit else base


def phone(value) -> str:
    """``+5511987654321`` -> ``+55 (11) 98765-4321``; other shapes are shown as given."""
    digits = _digits(value)
    if len(digits) == 13 and digits.startswith("55"):
        return f"+55 ({digits[2:4]}) {digits[4:9]}-{digits[9:]}"
    if len(digits) == 12 and digits.startswith("55"):
        return f"+55 ({digits[2:4]}) {digits[4:8]}-{digits[8:]}"
    return str(value or "")


def coordinate(value) -> str:
    """A latitude or longitude in decimal degrees with six places: ``-23.5505`` -> ``-23,550500``."""
    return number(value, 6)

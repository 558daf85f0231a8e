"""Sandbox payroll system: auction proposals are injected by ops or tests, nothing is invented.

``make cli ARGS="auctions inject --document 12345678901 --name 'MARIA SILVA' --balance 1500.00
--installments 24"`` builds an offer here and ingests it at once (the sandbox "publishes" it).
"""

from __future__ import annotations

import threading
import uuid
from decimal import Decimal

from models.external.auctions.port import AuctionOffer, AuctionSource


def make_offer(
    document: str,
    name: str,
    balance: Decimal | str,
    installments: int,
    *,
    external_id: str | None = None,
    eligible: bool = True,
) -> AuctionOffer:
    """An offer as the payroll system would publish it (external id generated when absent)."""
    return AuctionOffer(
        external_id=external_id or f"sandbox-{uuid.uuid4()}",
        document=document,
        name=name,
        available_balance=Decimal(str(balance)),
        installment_quantity=int(installments),
        eligible=eligible,
    )


class SandboxAuctionSource(AuctionSource):
    """Returns what was injected into this process since the last read, in injection order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queued: list[AuctionOffer] = []

    def inject(self, offer: AuctionOffer) -> AuctionOffer:
        with self._lock:
            self._queued.append(offer)
        return offer

    def fetch_new(self) -> list[AuctionOffer]:
        with self._lock:
            offers, self._queued = self._queued, []
        return offers

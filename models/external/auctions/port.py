"""Port: auction proposals published by the government payroll system."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class AuctionOffer:
    """One auction proposal as the payroll system describes it."""

    external_id: str
    document: str  # CPF, 11 digits, no mask
    name: str
    available_balance: Decimal  # reais
    installment_quantity: int
    eligible: bool = True


class AuctionSourceError(Exception):
    """The payroll system could not be read; ``retryable`` says whether trying again may help."""

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


class AuctionSource(abc.ABC):
    @abc.abstractmethod
    def fetch_new(self) -> list[AuctionOffer]:
        """Auction proposals published since the last read (ingestion is idempotent by external_id)."""

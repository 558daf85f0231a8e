"""Fraud analysis provider: screens a signed contract and decides reviewed cases."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class FraudCase:
    contract_id: str
    cpf: str
    full_name: str
    amount: Decimal
    origin: str


class FraudAnalysis(abc.ABC):
    @abc.abstractmethod
    def needs_attention(self, case: FraudCase) -> bool:
        """True when the provider flags the case for review regardless of its amount."""

    @abc.abstractmethod
    def decide(self, case: FraudCase) -> tuple[bool, str]:
        """(approved, reason) for a case under review."""

"""Credit engine port: approves or rejects given the margin, and sets rate, term and limits."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from decimal import Decimal

# Rejection reasons the service reports (rejection_reason).
NO_AVAILABLE_MARGIN = "NO_AVAILABLE_MARGIN"
IRREGULAR_CPF = "IRREGULAR_CPF"
INSUFFICIENT_SCORE = "INSUFFICIENT_SCORE"
AGE_CRITERIA = "AGE_CRITERIA"


@dataclass(frozen=True)
class EngineDecision:
    approved: bool
    rejection_reason: str | None = None
    monthly_rate: Decimal | None = None  # fraction; None: the product rate applies
    max_installments: int = 96
    pod_limit_max: Decimal | None = None
    promotional_pod_limit_max: Decimal | None = None
    score: int | None = None


class CreditEngineError(Exception):
    """The engine failed technically (retryable: the partner may call the retry route)."""

    retryable = True


class CreditEnginePort(ABC):
    @abstractmethod
    def evaluate(self, cpf: str, available_margin: Decimal, *, promotional: bool = False) -> EngineDecision:
        """Decide on ``cpf`` with its margin; ``promotional`` asks for the re-engagement conditions."""

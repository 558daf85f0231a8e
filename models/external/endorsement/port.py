"""Payroll endorsement: register a signed contract so the employer deducts the installments."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class EndorsementRequest:
    contract_id: str
    cpf: str
    installment_amount: Decimal
    installments: int
    first_due_date: date


class Endorsement(abc.ABC):
    @abc.abstractmethod
    def register(self, request: EndorsementRequest) -> str:
        """Register the deduction; returns the payroll system's id (same id for the same contract)."""

"""Funding partner: issues the CCB for a contract (an application) and pays the customer."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal


@dataclass(frozen=True)
class FundingApplication:
    application_id: str
    ccb_number: str  # stored as the contract's issuer_application_id


@dataclass(frozen=True)
class Payment:
    status: str  # PAID | FAILED
    amount: Decimal
    paid_at: datetime | None
    failure_reason: str | None = None


class Funding(abc.ABC):
    @abc.abstractmethod
    def create_application(
        self,
        *,
        reference: str,
        cpf: str,
        full_name: str,
        amount: Decimal,
        installments: int,
        installment_amount: Decimal,
    ) -> FundingApplication:
        """Open (or return the already open) application for ``reference`` (our contract id)."""

    @abc.abstractmethod
    def cancel_application(self, application_id: str) -> None:
        """Cancel an application that will not be paid."""

    @abc.abstractmethod
    def pay(self, *, application_id: str, amount: Decimal, destination: dict, idempotency_key: str) -> Payment:
        """Pay ``amount`` to ``destination``; the same key never pays twice (returns the first result)."""

    @abc.abstractmethod
    def find_payment(self, *, idempotency_key: str) -> Payment | None:
        """The payment requested with ``idempotency_key`` as the funder recorded it, or None when
        the funder knows no such request (asked before paying again after a crash)."""

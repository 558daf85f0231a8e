"""Payroll system port: the payroll-deductible margin of an employee."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal


@dataclass(frozen=True)
class MarginResult:
    available_margin: Decimal
    employer_document: str | None = None
    gross_salary: Decimal | None = None


class PayrollUnavailable(Exception):
    """The payroll system could not answer. ``auto_retry``: the source allows an automatic retry
    (PAYROLL_SYSTEM_FAILED_AWAITING_RETRY); ``retry_at`` forces when (maintenance window end)."""

    retryable = True

    def __init__(self, message: str, *, auto_retry: bool = False, retry_at: datetime | None = None) -> None:
        super().__init__(message)
        self.auto_retry = auto_retry
        self.retry_at = retry_at


class PayrollPort(ABC):
    @abstractmethod
    def query_margin(self, cpf: str, *, attempt: int = 1) -> MarginResult:
        """The available margin of ``cpf``. ``attempt`` counts queries of the same analysis chain:
        real systems ignore it; the sandbox uses it to script "fails, then a retry succeeds"."""

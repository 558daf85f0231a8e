"""Payroll system port: the payroll-deductible margin of an employee."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal


@dataclass(frozen=True)
class MarginResult:
    """What the payroll system answered about the employee's link: the margin, and the employer
    and the admission date as far as the system gives them (None when it does not)."""

    available_margin: Decimal
    employer_document: str | None = None
    employer_name: str | None = None
    admission_date: date | None = None
    gross_salary: Decimal | None = None

    def snapshot(self) -> dict:
        """The answer as stored with the analysis (``margin_snapshot``): JSON text, decimals with
        two places, the day as ``YYYY-MM-DD``, None for what the system did not give."""
        return {
            "available_margin": f"{self.available_margin:.2f}",
            "employer_document": self.employer_document,
            "employer_name": self.employer_name,
            "admission_date": self.admission_date.isoformat() if self.admission_date else None,
            "gross_salary": f"{self.gross_salary:.2f}" if self.gross_salary is not None else None,
        }


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

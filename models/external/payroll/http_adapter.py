"""Real payroll system over HTTP: POST /margin {cpf} -> {available_margin, employer_document,
employer_name, admission_date (YYYY-MM-DD), gross_salary}; only available_margin is required.

A 503 with {"auto_retry": true} means the source itself allows an automatic retry; any other
retryable failure (timeout, refused connection, 5xx) is a plain technical failure.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from models.external.http_base import ExternalError, HttpClient
from models.external.payroll.port import MarginResult, PayrollPort, PayrollUnavailable


class HttpPayroll(PayrollPort):
    def __init__(self, client: HttpClient) -> None:
        self.client = client

    def query_margin(self, cpf: str, *, attempt: int = 1) -> MarginResult:
        try:
            body = self.client.post("/margin", {"cpf": cpf})
        except ExternalError as error:
            raise PayrollUnavailable(str(error), auto_retry=False) from error
        if body.get("status") == "UNAVAILABLE":
            raise PayrollUnavailable("payroll system unavailable", auto_retry=bool(body.get("auto_retry")))
        try:
            return MarginResult(
                available_margin=_amount(body["available_margin"]),
                employer_document=_text(body.get("employer_document")),
                employer_name=_text(body.get("employer_name")),
                admission_date=date.fromisoformat(body["admission_date"]) if body.get("admission_date") else None,
                gross_salary=_amount(body["gross_salary"]) if body.get("gross_salary") is not None else None,
            )
        except (KeyError, TypeError, ValueError, ArithmeticError) as error:
            raise PayrollUnavailable(f"payroll system answered an unexpected body ({error})") from None


def _amount(value: object) -> Decimal:
    """An amount in reais: a JSON number or decimal text, finite (NaN and infinities are refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"expected an amount, got {type(value).__name__}")
    amount = Decimal(str(value))
    if not amount.is_finite():
        raise ValueError(f"amount {value!r} is not finite")
    return amount


def _text(value: object) -> str | None:
    """An optional text field: kept as the system sent it, bounded; anything but text is refused."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value[:200]

"""Real payroll system over HTTP: POST /margin {cpf} -> {available_margin, employer_document, ...}.

A 503 with {"auto_retry": true} means the source itself allows an automatic retry; any other
retryable failure (timeout, refused connection, 5xx) is a plain technical failure.
"""

from __future__ import annotations

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
                available_margin=Decimal(str(body["available_margin"])),
                employer_document=body.get("employer_document"),
                gross_salary=Decimal(str(body["gross_salary"])) if body.get("gross_salary") else None,
            )
        except (KeyError, ArithmeticError) as error:
            raise PayrollUnavailable(f"payroll system answered an unexpected body ({error})") from None

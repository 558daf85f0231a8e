"""Deterministic payroll system driven by the sandbox CPFs."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from models.external import sandbox_cpfs as cpfs
from models.external.payroll.port import MarginResult, PayrollPort, PayrollUnavailable

DEFAULT_MARGIN = Decimal("1000.00")
# Every sandbox employee works for the same (fictitious) employer since the same day.
EMPLOYMENT = MarginResult(
    available_margin=DEFAULT_MARGIN,
    employer_document="00000000000191",
    employer_name="EMPRESA SANDBOX LTDA",
    admission_date=date(2018, 3, 1),
    gross_salary=Decimal("5000.00"),
)


class SandboxPayroll(PayrollPort):
    def query_margin(self, cpf: str, *, attempt: int = 1) -> MarginResult:
        if cpf == cpfs.NO_MARGIN:
            return replace(EMPLOYMENT, available_margin=Decimal("0.00"))
        if cpf == cpfs.PAYROLL_UNAVAILABLE and attempt == 1:
            raise PayrollUnavailable("payroll system unavailable (sandbox)")
        if cpf == cpfs.PAYROLL_AUTO_RETRY and attempt == 1:
            raise PayrollUnavailable("payroll system failed; automatic retry allowed (sandbox)", auto_retry=True)
        return EMPLOYMENT

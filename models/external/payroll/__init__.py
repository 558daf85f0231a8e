"""Payroll system: margin queries (the callers keep away during its monthly maintenance window)."""

from __future__ import annotations

from models.external.payroll.port import MarginResult, PayrollPort, PayrollUnavailable
from models.settings import current

__all__ = ["MarginResult", "PayrollPort", "PayrollUnavailable", "get_payroll"]


def get_payroll() -> PayrollPort:
    """The adapter chosen by ``external_mode`` (sandbox or http)."""
    if current().external_mode == "http":
        from models.external.http_base import client_for
        from models.external.payroll.http_adapter import HttpPayroll

        return HttpPayroll(client_for(current().external.payroll, "payroll"))
    from models.external.payroll.sandbox import SandboxPayroll

    return SandboxPayroll()

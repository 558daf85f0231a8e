"""Payroll system: margin queries, unavailable during the monthly maintenance window."""
from __future__ import annotations

from models.domain.clock import now
from models.external.payroll.port import MarginResult, PayrollPort, PayrollUnavailable
from models.services.disbursement.payroll_window import maintenance_window_end
from models.settings import current

__all__ = ["MarginResult", "PayrollPort", "PayrollUnavailable", "get_payroll", "query_margin"]


def get_payroll() -> PayrollPort:
    """The adapter chosen by ``external_mode`` (sandbox or http)."""
    if current().external_mode == "http":
        from models.external.http_base import client_for
        from models.external.payroll.http_adapter import HttpPayroll

        return HttpPayroll(client_for(current().external.payroll, "payroll"))
    from models.external.payroll.sandbox import SandboxPayroll

    return SandboxPayroll()


def query_margin(cpf: str, *, attempt: int = 1) -> MarginResult:
    """Margin of ``cpf``; inside the maintenance window (20th 22:00 to 23rd 06:00, local) the
    system is not called and the failure schedules an automatic retry at the window's end."""
    window_end = maintenance_window_end(now())
    if window_end is not None:
        raise PayrollUnavailable("payroll system in its monthly maintenance window", auto_retry=True,
                                 retry_at=window_end)
    return get_payroll().query_margin(cpf, attempt=attempt)

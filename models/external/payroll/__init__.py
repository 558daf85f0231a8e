"""Payroll system: margin queries (the callers keep away during its monthly maintenance window;
adapters built by ports.py)."""

from __future__ import annotations

from models.external.payroll.port import MarginResult, PayrollPort, PayrollUnavailable

__all__ = ["MarginResult", "PayrollPort", "PayrollUnavailable"]

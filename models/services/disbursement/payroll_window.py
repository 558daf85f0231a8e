"""Whether the payroll system's monthly maintenance window applies now (spec: Limits).

Production and staging always honour it. The sandbox environment turns it off by default so
partners can walk the whole flow on any day; the window's effects stay testable there with the
sandbox CPFs 10000000442 and 10000000523, and the test environment keeps it on.
"""
from __future__ import annotations

from datetime import datetime

from models.domain import calendar
from models.settings import current


def maintenance_window_end(at: datetime) -> datetime | None:
    """End of the window when ``at`` falls inside an enforced one, else None."""
    if not current().payroll_window.enforced or not calendar.in_payroll_maintenance_window(at):
        return None
    return calendar.payroll_maintenance_window_end(at)

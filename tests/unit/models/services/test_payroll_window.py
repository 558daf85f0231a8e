"""The payroll maintenance window is enforced everywhere but the sandbox environment."""
from datetime import datetime, timezone

import pytest

from models.services.disbursement import payroll_window
from models.settings import load_settings

INSIDE = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)   # 21st, 09:00 in Sao Paulo
OUTSIDE = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)
WINDOW_END = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)  # 23rd 06:00 in Sao Paulo


@pytest.mark.parametrize("environment", ["test", "staging", "production"])
def test_enforced_outside_the_sandbox(monkeypatch, environment):
    settings = load_settings(environment, environ={"JWT_SIGNING_KEY": "k" * 40})
    monkeypatch.setattr(payroll_window, "current", lambda: settings)
    assert payroll_window.maintenance_window_end(INSIDE) == WINDOW_END
    assert payroll_window.maintenance_window_end(OUTSIDE) is None


def test_the_sandbox_lets_partners_walk_the_flow_any_day(monkeypatch):
    settings = load_settings("sandbox", environ={})
    monkeypatch.setattr(payroll_window, "current", lambda: settings)
    assert payroll_window.maintenance_window_end(INSIDE) is None

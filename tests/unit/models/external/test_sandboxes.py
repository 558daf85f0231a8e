"""Sandbox adapters: the documented CPFs and the payroll maintenance window."""
from datetime import datetime, timezone
from decimal import Decimal

import freezegun
import pytest

from models.external.credit_engine.sandbox import SandboxCreditEngine
from models.external.payroll import PayrollUnavailable, query_margin
from models.external.payroll.sandbox import SandboxPayroll


def test_payroll_failure_cpfs_fail_only_on_the_first_attempt():
    payroll = SandboxPayroll()
    for cpf, auto in (("10000000442", False), ("10000000523", True)):
        with pytest.raises(PayrollUnavailable) as raised:
            payroll.query_margin(cpf, attempt=1)
        assert raised.value.auto_retry is auto
        assert payroll.query_margin(cpf, attempt=2).available_margin == Decimal("1000.00")


def test_no_margin_cpf_has_zero_margin():
    assert SandboxPayroll().query_margin("10000000108").available_margin == Decimal("0.00")


@pytest.mark.parametrize("instant,inside", [("2026-03-21T00:59:59Z", False), ("2026-03-21T01:00:00Z", True),
                                            ("2026-03-23T08:59:59Z", True), ("2026-03-23T09:00:00Z", False)])
def test_margin_queries_are_unavailable_in_the_maintenance_window(instant, inside):
    with freezegun.freeze_time(instant):
        if inside:
            with pytest.raises(PayrollUnavailable) as raised:
                query_margin("52998224725")
            assert raised.value.auto_retry is True
            assert raised.value.retry_at == datetime(2026, 3, 23, 9, tzinfo=timezone.utc)
        else:
            assert query_margin("52998224725").available_margin == Decimal("1000.00")


def test_engine_promotional_conditions():
    decision = SandboxCreditEngine().evaluate("52998224725", Decimal("1000"), promotional=True)
    assert (decision.approved, decision.monthly_rate, decision.promotional_pod_limit_max) == \
        (True, Decimal("0.0179"), Decimal("60000.00"))

"""Sandbox adapters: the documented CPFs."""

from decimal import Decimal

import pytest

from models.external.account_ownership import BankAccount
from models.external.account_ownership.sandbox import SandboxAccountOwnership
from models.external.credit_engine.sandbox import SandboxCreditEngine
from models.external.http_base import RetryableExternalError
from models.external.payroll import PayrollUnavailable
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


def test_engine_promotional_conditions():
    decision = SandboxCreditEngine(slow_seconds=0.0).evaluate("52998224725", Decimal("1000"), promotional=True)
    assert (decision.approved, decision.monthly_rate, decision.promotional_pod_limit_max) == (
        True,
        Decimal("0.0179"),
        Decimal("60000.00"),
    )


def test_sandbox_account_ownership_magic_accounts():
    sandbox = SandboxAccountOwnership()

    def check(number):
        return sandbox.check(BankAccount("001", "0001", None, number, "0", "checking"), holder_document="52998224725")

    assert [check(n) for n in ("123456", "999999", "000000")] == ["CONFIRMED", "OTHER_HOLDER", "NOT_FOUND"]
    with pytest.raises(RetryableExternalError):
        check("777777")

"""The credit analysis decision (analysis_runner.assess) with fake payroll and credit engine: the
policy's order (age, maintenance window, margin, engine) and what each step asks of whom."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timezone
from decimal import Decimal

import freezegun
import pytest

from models.external.credit_engine.port import AGE_CRITERIA, NO_AVAILABLE_MARGIN, CreditEngineError, EngineDecision
from models.external.payroll.port import PayrollUnavailable
from models.services.credit.analysis_runner import Approved, EngineFailed, PayrollFailed, Rejected, assess
from models.settings import load_settings
from tests.support.fake_ports import FakeCreditEngine, FakePayroll

SETTINGS = load_settings("test", environ={})  # min_age 18, max_age 75, payroll window enforced
CPF = "52998224725"
ADULT = date(1985, 4, 12)
BUSINESS_DAY = "2026-03-10T15:00:00Z"
INSIDE_THE_WINDOW = "2026-03-21T12:00:00Z"  # the 21st, 09:00 in Sao Paulo


def _assess(payroll, engine, *, birth_date=ADULT, promotional=False, enforced=True):
    return assess(
        CPF,
        birth_date,
        attempt=1,
        promotional=promotional,
        payroll=payroll,
        credit_engine=engine,
        credit_settings=SETTINGS.credit,
        payroll_window_settings=replace(SETTINGS.payroll_window, enforced=enforced),
    )


@freezegun.freeze_time(BUSINESS_DAY)
@pytest.mark.parametrize("birth_date", [date(2010, 1, 1), date(1940, 1, 1)])
def test_an_age_outside_the_policy_is_rejected_without_asking_anyone(birth_date):
    payroll, engine = FakePayroll(), FakeCreditEngine()
    assert _assess(payroll, engine, birth_date=birth_date) == Rejected(AGE_CRITERIA)
    assert (payroll.calls, engine.calls) == ([], [])


@freezegun.freeze_time(INSIDE_THE_WINDOW)
def test_inside_an_enforced_window_the_payroll_system_is_not_asked_and_the_retry_waits_for_its_end():
    payroll, engine = FakePayroll(), FakeCreditEngine()
    verdict = _assess(payroll, engine)
    assert isinstance(verdict, PayrollFailed) and verdict.failure.auto_retry
    assert verdict.failure.retry_at == datetime(2026, 3, 23, 9, tzinfo=timezone.utc)  # 23rd 06:00 local
    assert (payroll.calls, engine.calls) == ([], [])


@freezegun.freeze_time(INSIDE_THE_WINDOW)
def test_where_the_window_is_not_enforced_the_payroll_system_is_asked_inside_it():
    payroll = FakePayroll()
    assert isinstance(_assess(payroll, FakeCreditEngine(), enforced=False), Approved)
    assert payroll.calls == [(CPF, 1)]


@freezegun.freeze_time(BUSINESS_DAY)
def test_a_payroll_failure_is_reported_as_it_came_and_the_engine_is_not_asked():
    failure = PayrollUnavailable("down", auto_retry=False)
    engine = FakeCreditEngine()
    assert _assess(FakePayroll(failure=failure), engine) == PayrollFailed(failure)
    assert engine.calls == []


@freezegun.freeze_time(BUSINESS_DAY)
def test_no_margin_is_rejected_before_the_engine():
    engine, payroll = FakeCreditEngine(), FakePayroll(margin="0.00")
    assert _assess(payroll, engine) == Rejected(NO_AVAILABLE_MARGIN, payroll.answer)
    assert engine.calls == []


@freezegun.freeze_time(BUSINESS_DAY)
def test_an_engine_error_is_a_technical_failure():
    payroll = FakePayroll()
    verdict = _assess(payroll, FakeCreditEngine(error=CreditEngineError("engine timeout")))
    assert verdict == EngineFailed("engine timeout", payroll.answer)


@freezegun.freeze_time(BUSINESS_DAY)
def test_an_engine_rejection_keeps_its_reason_and_the_margin():
    engine = FakeCreditEngine(EngineDecision(approved=False, rejection_reason="INSUFFICIENT_SCORE"))
    payroll = FakePayroll(margin="800.00")
    assert _assess(payroll, engine) == Rejected("INSUFFICIENT_SCORE", payroll.answer)


@freezegun.freeze_time(BUSINESS_DAY)
def test_an_approval_carries_the_margin_and_the_engine_decision_asked_with_the_promotional_flag():
    decision = EngineDecision(approved=True, monthly_rate=Decimal("0.0179"), max_installments=84)
    engine = FakeCreditEngine(decision)
    payroll = FakePayroll(margin="750.00")
    assert _assess(payroll, engine, promotional=True) == Approved(payroll.answer, decision)
    assert engine.calls == [(CPF, Decimal("750.00"), True)]

"""The automatic payroll retry is bounded: by a count and by the retry window from the first
failure. Past either bound the analysis ends CREDIT_ANALYSIS_FAILED (CRA-DTP-003, retryable) and
the partner's retry route takes over, as the spec describes."""

from datetime import timedelta

import freezegun
import pytest

from models import runtime
from models.db.analysis import CreditAnalysis
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal, StatusChange
from models.domain.analysis_rules import retryable_failure
from models.domain.clock import now, to_utc
from models.external.payroll.port import PayrollUnavailable
from models.services.credit.analysis_runner import auto_retry, run
from tests import builders
from tests.support.fake_ports import FakeCreditEngine, FakePayroll


@pytest.fixture(autouse=True)
def _settled(held_outbox, drain):
    """The test plays the queued work itself (held outbox); what it queued runs after it, before
    the next test empties the tables."""
    yield
    drain()


START = "2026-03-10T13:00:00Z"  # a Tuesday, outside the payroll maintenance window


@pytest.fixture
def analysis():
    with freezegun.freeze_time(START):
        return builders.analysis_in_progress()


def _run(analysis_id, payroll, credit_settings=None):
    rt = runtime.current()
    run(
        analysis_id,
        payroll=payroll,
        credit_engine=FakeCreditEngine(),
        credit_settings=credit_settings or rt.settings.credit,
        payroll_window_settings=rt.settings.payroll_window,
    )


def _status(analysis):
    return Proposal.get_by_id(analysis.proposal_id).status


def _cycle(analysis, payroll, frozen, credit_settings=None):
    """One failure and, when one was scheduled, its automatic retry at its time."""
    _run(analysis.id, payroll, credit_settings)
    row = CreditAnalysis.get_by_id(analysis.id)
    if row.outcome == "AWAITING_RETRY":
        frozen.move_to(row.retry_at)
        auto_retry(analysis.id)


def test_after_the_last_automatic_retry_the_failure_is_the_partners_to_retry(analysis):
    limit = runtime.current().settings.credit.payroll_auto_retry_limit
    payroll = FakePayroll(failure=PayrollUnavailable("down", auto_retry=True))
    with freezegun.freeze_time(START) as frozen:
        for _ in range(limit):
            _cycle(analysis, payroll, frozen)
        assert (_status(analysis), CreditAnalysis.get_by_id(analysis.id).auto_retries) == (
            "CREDIT_ANALYSIS_IN_PROGRESS",
            limit,
        )
        _run(analysis.id, payroll)  # the failure after the last automatic retry
    row = CreditAnalysis.get_by_id(analysis.id)
    assert (row.outcome, row.error_code, row.retryable, _status(analysis)) == (
        "FAILED",
        "CRA-DTP-003",
        True,
        "CREDIT_ANALYSIS_FAILED",
    )
    assert retryable_failure(_status(analysis), row.outcome, row.retryable)  # the retry route takes it
    assert len(payroll.calls) == limit + 1
    awaiting = StatusChange.select().where(StatusChange.new_status == "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY")
    assert awaiting.count() == limit  # two webhooks per cycle, and no more cycles than the limit


@pytest.mark.parametrize(
    "past_the_window,outcome", [(timedelta(0), "AWAITING_RETRY"), (timedelta(seconds=1), "FAILED")]
)
def test_no_automatic_retry_later_than_the_window_from_the_first_failure(analysis, past_the_window, outcome):
    hours = runtime.current().settings.credit.retry_window_hours
    with freezegun.freeze_time(START) as frozen:
        first = now()
        _cycle(analysis, FakePayroll(failure=PayrollUnavailable("down", auto_retry=True)), frozen)
        # The second failure asks for a retry at first failure + window (+ 1 s): e.g. the end of a
        # maintenance window.
        late = PayrollUnavailable("window", auto_retry=True, retry_at=first + timedelta(hours=hours) + past_the_window)
        _run(analysis.id, FakePayroll(failure=late))
    row = CreditAnalysis.get_by_id(analysis.id)
    assert row.outcome == outcome
    assert to_utc(row.first_payroll_failure_at or first) == first


def test_a_scheduled_retry_is_an_outbox_row_with_its_time(analysis):
    with freezegun.freeze_time(START):
        _run(analysis.id, FakePayroll(failure=PayrollUnavailable("down", auto_retry=True)))
    row = CreditAnalysis.get_by_id(analysis.id)
    scheduled = OutboxMessage.get(OutboxMessage.actor_name == "auto_retry_credit_analysis")
    assert to_utc(scheduled.deliver_at) == to_utc(row.retry_at)

"""A credit analysis whose run was lost (dead-lettered in an outage longer than the actor's
retries) is run again by the lifecycle sweep once lifecycle.analysis_redrive_seconds have passed
since its status began: never one instant earlier, once per window, never once it has an outcome;
and the give-up hook leaves an analysis the database failed to this re-drive."""

from dataclasses import replace
from datetime import timedelta

import pytest
from freezegun import freeze_time

from models import runtime
from models.db.analysis import CreditAnalysis
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal, StatusChange
from models.domain.clock import to_utc
from models.services.credit import analysis_redrive, analysis_runner
from tests import builders

STEP = timedelta(microseconds=1)


@pytest.fixture(autouse=True)
def _settled(held_outbox, drain):
    """The test reads the queued runs itself (held outbox); they run after it."""
    yield
    drain()


def lifecycle():
    return runtime.current().settings.lifecycle


def redrive(settings=None):
    settings = settings or lifecycle()
    return analysis_redrive.redrive_stalled_analyses(lifecycle_settings=settings, batch_size=50)


def stalled_analysis():
    proposal = builders.proposal(path=("TOKEN_SENT", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_IN_PROGRESS"))
    analysis = builders.analysis(proposal, outcome="IN_PROGRESS", finished_at=None, approved_at=None)
    entered = StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.sequence == proposal.status_sequence)
    return proposal, analysis, to_utc(entered.changed_at) + timedelta(seconds=lifecycle().analysis_redrive_seconds)


def runs_queued(analysis):
    rows = OutboxMessage.select().where(OutboxMessage.actor_name == "run_credit_analysis")
    return [row.dedup_key for row in rows if row.args == [analysis.id]]


def test_a_stalled_analysis_is_run_again_once_per_window_and_not_before():
    _proposal, analysis, due = stalled_analysis()
    with freeze_time(due - STEP):
        assert redrive() == 0
    assert runs_queued(analysis) == []
    with freeze_time(due):
        assert redrive() == 1
        assert redrive() == 0  # the next sweep in the same window
    assert len(runs_queued(analysis)) == 1
    with freeze_time(due + timedelta(seconds=lifecycle().analysis_redrive_seconds)):
        assert redrive() == 1  # still no outcome a window later: driven again
    assert len(runs_queued(analysis)) == 2


def test_an_analysis_with_an_outcome_is_left_alone():
    proposal, analysis, due = stalled_analysis()
    CreditAnalysis.update(outcome="APPROVED").where(CreditAnalysis.id == analysis.id).execute()
    with freeze_time(due + timedelta(hours=1)):
        assert redrive() == 0
    Proposal.update(status="OFFERS_RECEIVED").where(Proposal.id == proposal.id).execute()
    CreditAnalysis.update(outcome="IN_PROGRESS").where(CreditAnalysis.id == analysis.id).execute()
    with freeze_time(due + timedelta(hours=1)):
        assert redrive() == 0  # the proposal left CREDIT_ANALYSIS_IN_PROGRESS
    assert runs_queued(analysis) == []


def test_the_setting_at_zero_turns_the_redrive_off():
    _proposal, analysis, due = stalled_analysis()
    with freeze_time(due + timedelta(hours=1)):
        assert redrive(replace(lifecycle(), analysis_redrive_seconds=0)) == 0
    assert runs_queued(analysis) == []


def test_the_run_queued_again_takes_the_analysis_to_its_outcome(drain):
    proposal, analysis, due = stalled_analysis()
    with freeze_time(due):
        redrive()
    drain()
    assert CreditAnalysis.get_by_id(analysis.id).outcome != "IN_PROGRESS"
    assert Proposal.get_by_id(proposal.id).status != "CREDIT_ANALYSIS_IN_PROGRESS"


@pytest.mark.parametrize("error_type", sorted(analysis_runner.DATABASE_AWAY_ERRORS))
def test_the_give_up_hook_leaves_an_analysis_the_database_failed_to_the_redrive(error_type):
    proposal, analysis, _due = stalled_analysis()
    analysis_runner.give_up(analysis.id, error_type)
    assert CreditAnalysis.get_by_id(analysis.id).outcome == "IN_PROGRESS"
    assert Proposal.get_by_id(proposal.id).status == "CREDIT_ANALYSIS_IN_PROGRESS"


def test_the_give_up_hook_fails_an_analysis_that_failed_on_its_own():
    proposal, analysis, _due = stalled_analysis()
    analysis_runner.give_up(analysis.id, "ValueError")
    row = CreditAnalysis.get_by_id(analysis.id)
    assert (row.outcome, row.error_code, row.retryable) == ("FAILED", "CRA-INT-001", False)
    assert Proposal.get_by_id(proposal.id).status == "CREDIT_ANALYSIS_FAILED"

"""Credit analysis actors are idempotent, keep away from the payroll maintenance window and close
the analysis when they give up."""

from datetime import datetime, timezone

import freezegun
import pytest

from models import runtime
from models.db.analysis import CreditAnalysis, Offer
from models.db.proposals import Proposal, StatusChange
from models.domain.clock import to_utc
from models.external.payroll.port import MarginResult, PayrollPort
from models.external.payroll.sandbox import SandboxPayroll
from models.services.credit.analysis_runner import run
from tests import builders


class CountingPayroll(PayrollPort):
    """The sandbox payroll system, noting every CPF it is asked about."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def query_margin(self, cpf: str, *, attempt: int = 1) -> MarginResult:
        self.asked.append(cpf)
        return SandboxPayroll().query_margin(cpf, attempt=attempt)


@pytest.fixture
def analysis(drain):
    """An analysis in progress whose message is not queued: the test plays the deliveries."""
    with freezegun.freeze_time("2026-03-10T13:00:00Z", tick=True):
        yield builders.analysis_in_progress()
        drain()  # the status events the actor emitted


def test_a_redelivered_analysis_message_changes_nothing(analysis):
    from actors.credit_analysis import run_credit_analysis  # bound to the broker once the app booted

    run_credit_analysis.fn(analysis.id)
    run_credit_analysis.fn(analysis.id)
    assert Offer.select().where(Offer.analysis == analysis.id).count() == 2
    assert StatusChange.select().where(StatusChange.new_status == "OFFERS_RECEIVED").count() == 1


def test_giving_up_fails_the_analysis_as_not_retryable(analysis):
    from actors.credit_analysis import credit_analysis_gave_up

    credit_analysis_gave_up.fn({"args": [analysis.id]}, {"type": "KeyError"})
    row = CreditAnalysis.get_by_id(analysis.id)
    assert (row.outcome, row.error_code, row.retryable) == ("FAILED", "CRA-INT-001", False)
    assert Proposal.get_by_id(analysis.proposal_id).status == "CREDIT_ANALYSIS_FAILED"


def test_giving_up_on_the_database_leaves_the_analysis_to_the_redrive(analysis):
    from actors.credit_analysis import credit_analysis_gave_up

    credit_analysis_gave_up.fn({"args": [analysis.id]}, {"type": "OperationalError"})
    assert CreditAnalysis.get_by_id(analysis.id).outcome == "IN_PROGRESS"
    assert Proposal.get_by_id(analysis.proposal_id).status == "CREDIT_ANALYSIS_IN_PROGRESS"


@pytest.mark.parametrize(
    "instant,inside",
    [
        ("2026-03-21T00:59:59Z", False),
        ("2026-03-21T01:00:00Z", True),
        ("2026-03-23T08:59:59Z", True),
        ("2026-03-23T09:00:00Z", False),
    ],
)
def test_inside_the_payroll_window_the_analysis_waits_for_its_end_without_asking(analysis, instant, inside):
    # The window runs from the 20th 22:00 to the 23rd 06:00, Sao Paulo (01:00 to 09:00 UTC here).
    payroll, rt = CountingPayroll(), runtime.current()
    with freezegun.freeze_time(instant):
        run(
            analysis.id,
            payroll=payroll,
            credit_engine=rt.ports.credit_engine,
            credit_settings=rt.settings.credit,
            payroll_window_settings=rt.settings.payroll_window,
        )
    asked = payroll.asked
    row = CreditAnalysis.get_by_id(analysis.id)
    status = Proposal.get_by_id(analysis.proposal_id).status
    if inside:
        assert (row.outcome, status, asked) == ("AWAITING_RETRY", "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY", [])
        assert to_utc(row.retry_at) == datetime(2026, 3, 23, 9, tzinfo=timezone.utc)
    else:
        assert (row.outcome, status, asked) == ("APPROVED", "OFFERS_RECEIVED", ["52998224725"])

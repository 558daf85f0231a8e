"""Credit analysis actors are idempotent and close the analysis when they give up."""
import freezegun
import pytest

from actors.credit_analysis import credit_analysis_gave_up, run_credit_analysis
from models.db.analysis import CreditAnalysis, Offer
from models.db.proposals import Proposal, StatusChange
from models.services.credit.analysis import ConsentData, start_analysis

CONSENT = ConsentData("203.0.113.10", -23.55, -46.63, "consent", "web")


@pytest.fixture
def analysis(drain):
    with freezegun.freeze_time("2026-03-10T13:00:00Z", tick=True):
        proposal = Proposal.create(origin="PARTNER_A", product_id="p", cpf="52998224725", full_name="MARIA",
                                   birth_date="1985-04-12", status="TOKEN_VALIDATED")
        started = start_analysis(proposal, CONSENT, "async")
        # The enqueued message may already be running on the worker: calling the actor's
        # function again (as a redelivery would) must change nothing.
        yield started
        drain()


def test_a_redelivered_analysis_message_changes_nothing(analysis):
    run_credit_analysis.fn(analysis.id)
    run_credit_analysis.fn(analysis.id)
    assert Offer.select().where(Offer.analysis == analysis.id).count() == 2
    assert StatusChange.select().where(StatusChange.new_status == "OFFERS_RECEIVED").count() == 1


def test_giving_up_fails_the_analysis_as_not_retryable(analysis):
    credit_analysis_gave_up.fn({"args": [analysis.id]}, {"type": "OperationalError"})
    row = CreditAnalysis.get_by_id(analysis.id)
    assert (row.outcome, row.error_code, row.retryable) == ("FAILED", "CRA-INT-001", False)
    assert Proposal.get_by_id(analysis.proposal_id).status == "CREDIT_ANALYSIS_FAILED"

"""Credit analysis actors are idempotent and close the analysis when they give up."""
import freezegun
import pytest

from actors.credit_analysis import credit_analysis_gave_up, run_credit_analysis
from models.db.analysis import CreditAnalysis, Offer
from models.db.proposals import Consent, Proposal, StatusChange


@pytest.fixture
def analysis(drain):
    """An analysis in progress whose message is not queued: the test plays the deliveries."""
    with freezegun.freeze_time("2026-03-10T13:00:00Z", tick=True):
        proposal = Proposal.create(origin="PARTNER_A", product_id="p", cpf="52998224725", full_name="MARIA",
                                   birth_date="1985-04-12", status="CREDIT_ANALYSIS_IN_PROGRESS")
        consent = Consent.create(proposal=proposal.id, ip="203.0.113.10", latitude=-23.55, longitude=-46.63,
                                 document_text="consent", channel="web")
        yield CreditAnalysis.create(proposal=proposal.id, cpf=proposal.cpf, origin="PARTNER_A", consent_id=consent.id)
        drain()  # the status events the actor emitted


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

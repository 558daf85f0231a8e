"""`contracts withdraw`: CANCELLED_BY_USER after disbursement, only through ops."""

from models.db.proposals import Proposal, StatusChange
from tests.builders import disbursed_proposal, pre_accepted_proposal


def run(app, *args):
    return app.test_cli_runner().invoke(args=["contracts", "withdraw", *args])


def test_withdraw_moves_a_disbursed_proposal_to_cancelled_by_user(app):
    proposal = disbursed_proposal()
    result = run(app, proposal.id)
    assert result.exit_code == 0, result.output
    assert Proposal.get_by_id(proposal.id).status == "CANCELLED_BY_USER"
    change = (
        StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence.desc()).get()
    )
    assert (change.source, change.trigger) == ("ops", "CUSTOMER_WITHDRAWAL")


def test_withdraw_refuses_a_proposal_not_disbursed(app):
    proposal = pre_accepted_proposal(status="AWAITING_SIGNATURE")
    result = run(app, proposal.id)
    assert result.exit_code != 0 and "not allowed" in result.output
    assert Proposal.get_by_id(proposal.id).status == "AWAITING_SIGNATURE"


def test_withdraw_unknown_proposal(app):
    assert "no proposal" in run(app, "0f8fad5b-d9cb-469f-a165-70867728950e").output

"""`contracts withdraw`: CANCELLED_BY_USER after disbursement, only through ops."""
from models.db.proposals import Proposal, StatusChange
from tests.contract_fixtures import pre_accepted_proposal


def run(app, *args):
    return app.test_cli_runner().invoke(args=["contracts", "withdraw", *args])


def _disbursed():
    from models.db.contracts import Contract
    from tests.contract_fixtures import with_bank_account

    proposal = with_bank_account(pre_accepted_proposal())
    Proposal.update(status="DISBURSED").where(Proposal.id == proposal.id).execute()
    offer = proposal.offers.get()
    Contract.create(proposal=proposal.id, offer_id=offer.id, origin=proposal.origin, cpf=proposal.cpf, status="ISSUED",
                    principal_amount=offer.principal_amount, total_amount=offer.payload["total_amount"],
                    installment_amount=offer.installment_amount, installments=offer.installments,
                    interest_rate=offer.interest_rate, first_due_date=offer.payload["first_due_date"],
                    final_due_date=offer.payload["final_due_date"])
    return proposal


def test_withdraw_moves_a_disbursed_proposal_to_cancelled_by_user(app):
    proposal = _disbursed()
    result = run(app, proposal.id)
    assert result.exit_code == 0, result.output
    assert Proposal.get_by_id(proposal.id).status == "CANCELLED_BY_USER"
    change = StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence.desc()).get()
    assert (change.source, change.trigger) == ("ops", "CUSTOMER_WITHDRAWAL")


def test_withdraw_refuses_a_proposal_not_disbursed(app):
    proposal = pre_accepted_proposal(status="AWAITING_SIGNATURE")
    result = run(app, proposal.id)
    assert result.exit_code != 0 and "not allowed" in result.output
    assert Proposal.get_by_id(proposal.id).status == "AWAITING_SIGNATURE"


def test_withdraw_unknown_proposal(app):
    assert "no proposal" in run(app, "0f8fad5b-d9cb-469f-a165-70867728950e").output

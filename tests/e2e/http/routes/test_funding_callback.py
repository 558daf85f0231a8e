"""POST /callbacks/funding: the funding partner's withdrawal event, HMAC-authenticated."""

import json

import pytest

from models import runtime
from models.db.proposals import Proposal, StatusChange
from models.services.partners import callback_auth
from tests.builders import contract_for, disbursed_proposal, pre_accepted_proposal

URL = "/callbacks/funding"


def _post(client, body: dict, secret: str | None = None):
    raw = json.dumps(body).encode()
    signature = callback_auth.sign(raw, secret or runtime.current().settings.funding.callback_secret)
    return client.post(URL, data=raw, headers={"Content-Type": "application/json", "X-Signature": signature})


def test_withdrawal_moves_the_disbursed_proposal_to_cancelled_by_user(client):
    proposal = disbursed_proposal(issuer_application_id="CCB-0001")
    response = _post(client, {"event": "WITHDRAWAL", "issuer_application_id": "CCB-0001"})
    assert response.status_code == 200
    assert response.get_json() == {"received": True, "proposal_id": proposal.id, "status": "CANCELLED_BY_USER"}
    assert Proposal.get_by_id(proposal.id).status == "CANCELLED_BY_USER"
    last = (
        StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence.desc()).get()
    )
    assert (last.source, last.trigger) == ("funding", "CUSTOMER_WITHDRAWAL")


def test_a_repeated_event_changes_nothing(client):
    proposal = disbursed_proposal(issuer_application_id="CCB-0002")
    body = {"event": "WITHDRAWAL", "issuer_application_id": "CCB-0002"}
    assert _post(client, body).status_code == 200
    assert _post(client, body).status_code == 200
    assert (
        StatusChange.select()
        .where(StatusChange.proposal == proposal.id, StatusChange.new_status == "CANCELLED_BY_USER")
        .count()
        == 1
    )


def test_wrong_signature_is_401(client):
    disbursed_proposal(issuer_application_id="CCB-0003")
    response = _post(client, {"event": "WITHDRAWAL", "issuer_application_id": "CCB-0003"}, secret="not-the-secret")
    assert response.status_code == 401 and response.get_json()["errorCode"] == "INVALID_SIGNATURE"


@pytest.mark.parametrize(
    "body, field",
    [({"event": "OTHER", "issuer_application_id": "x"}, "event"), ({"event": "WITHDRAWAL"}, "issuer_application_id")],
)
def test_invalid_event_is_400_naming_the_field(client, body, field):
    response = _post(client, body)
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field


def test_unknown_contract_is_404(client):
    assert _post(client, {"event": "WITHDRAWAL", "issuer_application_id": "CCB-9999"}).status_code == 404


def test_withdrawal_before_disbursement_is_a_409(client):
    proposal = pre_accepted_proposal(status="AWAITING_SIGNATURE")
    contract_for(proposal, "CCB-0004")
    response = _post(client, {"event": "WITHDRAWAL", "issuer_application_id": "CCB-0004"})
    assert response.status_code == 409 and response.get_json()["details"] == {"currentStatus": "AWAITING_SIGNATURE"}
    assert Proposal.get_by_id(proposal.id).status == "AWAITING_SIGNATURE"


def test_withdrawal_changes_the_contract_with_that_ccb_number_even_when_a_newer_one_exists(client):
    from datetime import timedelta

    from models.db.contracts import Contract

    proposal = disbursed_proposal(issuer_application_id="CCB-0005")
    withdrawn = Contract.get(Contract.issuer_application_id == "CCB-0005")
    other = Contract.create(
        proposal=proposal.id,
        offer_id=withdrawn.offer_id,
        origin=proposal.origin,
        cpf=proposal.cpf,
        status="FAILED",
        principal_amount=withdrawn.principal_amount,
        total_amount=withdrawn.total_amount,
        installment_amount=withdrawn.installment_amount,
        installments=withdrawn.installments,
        interest_rate=withdrawn.interest_rate,
        first_due_date=withdrawn.first_due_date,
        final_due_date=withdrawn.final_due_date,
        created_at=withdrawn.created_at + timedelta(minutes=1),
    )
    response = _post(client, {"event": "WITHDRAWAL", "issuer_application_id": "CCB-0005"})
    assert response.status_code == 200
    assert Contract.get_by_id(withdrawn.id).status == "CANCELLED_BY_USER"
    assert Contract.get_by_id(other.id).status == "FAILED"

"""What a partner learns about other origins: every 409 that mentions another proposal keeps its
errorCode and shows that proposal's id and status only to the origin that owns it (README, "What a
partner can learn about other origins"); the phone-in-use rule is no phone lookup."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.clock import now
from tests import builders

CPF = "52998224725"
START = {"cpf": CPF, "full_name": "Maria da Silva", "birth_date": "1985-04-12"}


def _blocking(status: str, origin: str) -> Proposal:
    """A proposal of ``origin`` for CPF in ``status``, with the contract that status implies."""
    proposal = builders.proposal(cpf=CPF, origin=origin, status=status)
    if status == "AWAITING_SIGNATURE":
        builders.contract(proposal, signature_status="PENDING", signature_expires_at=now() + timedelta(hours=5))
    if status == "CONTRACT_GENERATED":
        builders.contract(proposal, pdf_path="var/none.pdf")
    return proposal


# (status of the blocking proposal, errorCode, the origin that starts: recontracting off for B)
BLOCKING = [
    ("ANALYSIS_APPROVED", "PROPOSAL_AWAITING_DISBURSEMENT", "PARTNER_A"),
    ("DISBURSEMENT_FAILED", "PROPOSAL_FINALIZED", "PARTNER_A"),
    ("PENDING_ANALYSIS", "PROPOSAL_PENDING_FRAUD_ANALYSIS", "PARTNER_A"),
    ("CREDIT_ANALYSIS_IN_PROGRESS", "PROPOSAL_PROCESSING_IN_PROGRESS", "PARTNER_A"),
    ("AWAITING_SIGNATURE", "CONTRACT_EXISTS", "PARTNER_A"),
    ("SIGNED", "CONTRACT_ACTIVE", "PARTNER_A"),
    ("CONTRACT_GENERATED", "CONTRACT_EXISTS", "PARTNER_A"),
    ("DISBURSED", "PROPOSAL_FINALIZED", "PARTNER_B"),
]


def _other(origin: str) -> str:
    return "PARTNER_B" if origin == "PARTNER_A" else "PARTNER_A"


@pytest.mark.parametrize("status, code, requester", BLOCKING)
def test_a_start_blocked_by_another_origin_keeps_the_code_and_hides_the_proposal(client, auth, status, code, requester):
    blocker = _blocking(status, _other(requester))
    response = client.post("/v1/proposals/start", json=START, headers=auth(requester))
    body = response.get_json()
    assert (response.status_code, body["errorCode"]) == (409, code)
    assert "proposal_id" not in body and "status" not in body
    assert blocker.id not in json.dumps(body) and status not in json.dumps(body)
    assert Proposal.select().count() == 1


@pytest.mark.parametrize("status, code, requester", BLOCKING)
def test_a_start_blocked_by_the_origins_own_proposal_names_it(client, auth, status, code, requester):
    blocker = _blocking(status, requester)
    response = client.post("/v1/proposals/start", json=START, headers=auth(requester))
    body = response.get_json()
    assert (response.status_code, body["errorCode"]) == (409, code)
    assert (body["proposal_id"], body["status"]) == (blocker.id, status)


@pytest.mark.parametrize("owner, named", [("PARTNER_B", False), ("PARTNER_A", True)])
def test_contract_active_names_the_signed_proposal_only_to_its_origin(client, auth, owner, named):
    # Given PARTNER_A's proposal ready for its contract and a signed one of the same CPF
    ready = builders.with_bank_account(builders.pre_accepted_proposal(cpf=CPF))
    signed = builders.proposal(cpf=CPF, origin=owner, status="SIGNED")
    # When PARTNER_A asks for the contract
    response = client.post(f"/v1/proposals/{ready.id}/contract", json={}, headers=auth())
    body = response.get_json()
    # Then CONTRACT_ACTIVE, naming the signed proposal only when it is PARTNER_A's own
    assert (response.status_code, body["errorCode"]) == (409, "CONTRACT_ACTIVE")
    assert (signed.id in json.dumps(body)) is named
    assert Contract.select().count() == 0


def _contact(client, auth, proposal_id: str, phone: str, partner: str):
    return client.post(
        f"/v1/proposals/{proposal_id}/contact",
        json={"email": "maria@example.com", "phone": phone},
        headers=auth(partner),
    )


def _code(client, auth, phone: str, partner: str) -> str:
    messages = client.get("/v1/sandbox/messages", query_string={"phone": phone}, headers=auth(partner)).get_json()
    return messages[0]["token"]


def test_a_phone_another_origin_uses_is_no_lookup_and_is_refused_after_the_code(client, auth):
    phone = "+5511987654321"
    builders.proposal(origin="PARTNER_B", phone=phone)  # another customer, another origin
    mine = builders.proposal(origin="PARTNER_A", phone=None)
    # Sending the contact data answers as for any free phone: nothing tells the number is used
    sent = _contact(client, auth, mine.id, phone, "PARTNER_A")
    assert sent.status_code == 201
    # Only the holder of the phone (the code sent to it) learns that it is taken
    response = client.post(
        f"/v1/proposals/{mine.id}/contact/validate-token",
        json={"token": _code(client, auth, phone, "PARTNER_A"), "phone": phone},
        headers=auth(),
    )
    assert response.status_code == 409 and response.get_json()["details"] == {"field": "phone"}
    assert Proposal.get_by_id(mine.id).status == "TOKEN_SENT"


def test_a_phone_the_origin_itself_uses_for_another_customer_is_refused_at_once(client, auth):
    phone = "+5511987654321"
    builders.proposal(origin="PARTNER_A", phone=phone)
    mine = builders.proposal(origin="PARTNER_A", phone=None)
    response = _contact(client, auth, mine.id, phone, "PARTNER_A")
    assert response.status_code == 409
    assert response.get_json()["message"] == "This phone is already used in another proposal"

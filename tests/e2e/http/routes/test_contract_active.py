"""CONTRACT_ACTIVE and CONTRACT_EXISTS, one meaning each, on POST /proposals/start and POST contract.

Spec, 409 codes: "POST /proposals/start | CONTRACT_ACTIVE | active contract with valid digital
signature for the CPF"; "| CONTRACT_EXISTS | contract already generated for the CPF"; "contract |
SIGNED_CONTRACT_EXISTS, CONTRACT_GENERATION_IN_PROGRESS, CONTRACT_ALREADY_GENERATED,
PROPOSAL_FINALIZED, CONTRACT_ACTIVE | as named". The rule is ``statuses.holds_active_contract``:
signed, not reproved, money not yet moved.
"""

import pytest

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.services.contract import generation
from tests.builders import DEFAULT_CPF, contract, pre_accepted_proposal, with_bank_account
from tests.e2e.contract_path import awaiting_signature


def start(client, auth, partner: str):
    body = {"cpf": DEFAULT_CPF, "full_name": "Maria da Silva", "birth_date": "1985-04-12"}
    return client.post("/v1/proposals/start", json=body, headers=auth(partner))


def test_start_while_a_contract_awaits_its_signature_is_contract_exists(client, auth, drain, business_day):
    # Given the CPF's contract was generated and waits for the customer's signature (window open)
    proposal, body = awaiting_signature(client, auth, drain)
    assert body["digital_signature"]["status"] == "PENDING"
    # When a proposal is started for the CPF
    response = start(client, auth, "PARTNER_A")
    # Then the contract exists ("already generated"); it has no valid digital signature yet
    assert (response.status_code, response.json["errorCode"], response.json["status"]) == (
        409,
        "CONTRACT_EXISTS",
        "AWAITING_SIGNATURE",
    )
    assert response.json["proposal_id"] == proposal.id


@pytest.mark.parametrize("status", ["SIGNED", "ERROR"])
def test_start_while_a_signed_contract_is_unpaid_is_contract_active(client, auth, business_day, status):
    # Given the CPF's contract is signed and not paid yet (ERROR: endorsement deferred), and the
    # origin has re-contracting on
    signed = pre_accepted_proposal(status=status)
    # When a proposal is started for the CPF
    response = start(client, auth, "PARTNER_A")
    # Then the CPF has an active contract with a valid digital signature
    assert (response.status_code, response.json["errorCode"], response.json["proposal_id"]) == (
        409,
        "CONTRACT_ACTIVE",
        signed.id,
    )


def test_start_with_a_signed_contract_and_recontracting_off_stays_finalized(client, auth, business_day):
    # Spec: "PROPOSAL_FINALIZED | CPF has a SIGNED/DISBURSED contract and re-contracting is off for
    # the origin" (PARTNER_B has re-contracting off)
    pre_accepted_proposal(status="SIGNED", origin="PARTNER_B")
    response = start(client, auth, "PARTNER_B")
    assert (response.status_code, response.json["errorCode"]) == (409, "PROPOSAL_FINALIZED")


def test_post_contract_while_another_proposal_holds_a_signed_unpaid_contract_is_contract_active(
    client, auth, business_day
):
    # Given a signed, unpaid contract of the CPF and another proposal of the CPF ready for its own
    signed = pre_accepted_proposal(status="SIGNED")
    ready = with_bank_account(pre_accepted_proposal())
    # When that one asks for its contract
    response = client.post(f"/v1/proposals/{ready.id}/contract", json={}, headers=auth())
    # Then the same rule answers the same code as /start
    assert (response.status_code, response.json["errorCode"], response.json["details"]["proposal_id"]) == (
        409,
        "CONTRACT_ACTIVE",
        signed.id,
    )
    assert Contract.select().where(Contract.proposal == ready.id).count() == 0


def test_a_contract_the_watchdog_abandoned_does_not_count_as_generated(client, auth, business_day):
    """Spec: "CONTRACT_EXISTS | contract already generated for the CPF". A generation the 3-minute
    watchdog abandoned never produced a contract: the CPF may start elsewhere, and its proposal
    (back in BANK_DATA_SUBMITTED) is returned to its own origin."""
    # Given PARTNER_B's contract generation was abandoned by the watchdog
    ready = with_bank_account(pre_accepted_proposal(origin="PARTNER_B"))
    Proposal.update(status="CONTRACT_GENERATION_IN_PROGRESS").where(Proposal.id == ready.id).execute()
    abandoned = contract(ready, status="CONTRACT_GENERATION_IN_PROGRESS")
    generation.watchdog(abandoned.id)
    assert (Proposal.get_by_id(ready.id).status, Contract.get_by_id(abandoned.id).status) == (
        "BANK_DATA_SUBMITTED",
        "FAILED",
    )
    # When each origin starts a proposal for the CPF
    elsewhere = start(client, auth, "PARTNER_A")
    again = start(client, auth, "PARTNER_B")
    # Then PARTNER_A gets a new proposal and PARTNER_B its live one back
    assert elsewhere.status_code == 201, elsewhere.json
    assert (again.status_code, again.json["proposal_id"]) == (200, ready.id)

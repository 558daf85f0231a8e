"""Signature: sandbox signing pages, the HMAC callback, the four checks and duplicates."""

import json
from datetime import timedelta

import pytest

from models import runtime
from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.services.partners.callback_auth import sign
from tests.e2e.contract_path import awaiting_signature, history, signing_path

SECRET = "test-esignature-callback-secret"
PASSING = {
    "process_result": "PROCESS_RESULT_OK",
    "authentication_result": "AUTHENTICATION_RESULT_POSITIVE",
    "liveness_result": "LIVENESS_RESULT_LIVE",
    "trust_result": "TRUST_RESULT_NO",
}


def callback(client, body: dict, secret: str = SECRET):
    raw = json.dumps(body).encode()
    return client.post(
        "/callbacks/esignature", data=raw, content_type="application/json", headers={"X-Signature": sign(raw, secret)}
    )


@pytest.fixture
def waiting(client, auth, drain, business_day):
    return awaiting_signature(client, auth, drain)


def test_all_checks_passing_signs(client, drain, waiting):
    proposal, contract = waiting
    assert client.post(signing_path(contract), json={}).json["status"] == "COMPLETED"
    drain()
    row = Contract.get_by_id(contract["contract_id"])
    assert (row.signature_status, row.signed_at is not None) == ("SIGNED", True)
    assert "SIGNED" in history(proposal.id)


@pytest.mark.parametrize(
    "field,value",
    [
        ("process_result", "PROCESS_RESULT_ERROR"),
        ("authentication_result", "AUTHENTICATION_RESULT_NEGATIVE"),
        ("liveness_result", "LIVENESS_RESULT_SPOOF"),
        ("trust_result", "TRUST_RESULT_YES"),
    ],
)
def test_any_failing_check_is_signature_failed(client, drain, waiting, field, value):
    proposal, contract = waiting
    client.post(signing_path(contract), json={field: value})
    drain()
    row = Contract.get_by_id(contract["contract_id"])
    assert (Proposal.get_by_id(proposal.id).status, row.signature_status) == ("SIGNATURE_FAILED", "REJECTED")
    assert row.signature_result[field] == value


def test_signing_page_redirects_to_the_partner_after_completion(client, auth, drain, business_day):
    _, contract = awaiting_signature(client, auth, drain, redirect_url="https://partner.example/back")
    response = client.post(signing_path(contract), json={})
    assert (response.status_code, response.headers["Location"]) == (303, "https://partner.example/back")
    drain()


def test_opening_the_page_marks_in_progress(client, auth, drain, waiting):
    proposal, contract = waiting
    assert client.get(signing_path(contract)).status_code == 200
    drain()
    body = client.get(f"/v1/proposals/{proposal.id}/contract", headers=auth()).json
    assert (body["proposal_status"], body["digital_signature"]["status"]) == ("AWAITING_SIGNATURE", "IN_PROGRESS")


def test_signed_callback_with_a_valid_hmac_signs(client, drain, waiting):
    proposal, contract = waiting
    process_id = Contract.get_by_id(contract["contract_id"]).unico_process_id
    response = callback(client, {"process_id": process_id, "event": "PROCESS_FINISHED", **PASSING})
    assert (response.status_code, response.json) == (200, {"received": True})
    drain()
    assert "SIGNED" in history(proposal.id)


def test_callback_with_a_wrong_signature_is_401_and_changes_nothing(client, drain, waiting):
    proposal, contract = waiting
    process_id = Contract.get_by_id(contract["contract_id"]).unico_process_id
    response = callback(client, {"process_id": process_id, "event": "PROCESS_FINISHED", **PASSING}, secret="guess")
    assert (response.status_code, response.json["errorCode"]) == (401, "INVALID_SIGNATURE")
    drain()
    assert Proposal.get_by_id(proposal.id).status == "AWAITING_SIGNATURE"


def test_callback_for_an_unknown_process_is_404(client, waiting):
    response = callback(client, {"process_id": "nope", "event": "PROCESS_FINISHED", **PASSING})
    assert response.status_code == 404


def test_duplicate_and_late_callbacks_change_nothing(client, drain, waiting):
    proposal, contract = waiting
    process_id = Contract.get_by_id(contract["contract_id"]).unico_process_id
    callback(
        client, {"process_id": process_id, "event": "PROCESS_FINISHED", **PASSING, "trust_result": "TRUST_RESULT_YES"}
    )
    drain()
    statuses = history(proposal.id)
    assert callback(client, {"process_id": process_id, "event": "PROCESS_FINISHED", **PASSING}).status_code == 200
    from models.services.contract.signature import handle_result

    settings = runtime.current().settings
    handle_result(  # a redelivered message past the outbox dedup
        process_id,
        "PROCESS_FINISHED",
        PASSING,
        esignature_settings=settings.esignature,
        contract_settings=settings.contract,
    )
    drain()
    assert history(proposal.id) == statuses and statuses[-1] == "SIGNATURE_FAILED"


def test_completing_a_closed_sandbox_process_is_409(client, drain, waiting):
    _, contract = waiting
    client.post(signing_path(contract), json={})
    assert client.post(signing_path(contract), json={}).status_code == 409
    drain()


def test_a_result_that_reached_us_in_time_counts_however_late_it_is_applied(
    client, drain, waiting, business_day, held_outbox
):
    # Given the customer's signature reached us before the deadline, but the worker stalled
    proposal, contract = waiting
    row = Contract.get_by_id(contract["contract_id"])
    finished = {"process_id": row.unico_process_id, "event": "PROCESS_FINISHED", **PASSING}
    assert callback(client, finished).status_code == 200
    # When the deadline passes before the result is applied, and the expiry runs first
    business_day.move_to(row.signature_expires_at + timedelta(minutes=5))
    from models.services.contract.signature import expire

    expire(row.id)
    drain()
    # Then the signature decides: signed at the instant it reached us, never expired
    row = Contract.get_by_id(row.id)
    assert "SIGNED" in history(proposal.id) and "EXPIRED" not in history(proposal.id)
    assert row.signature_status == "SIGNED" and row.signed_at < row.signature_expires_at


def test_a_result_that_reached_us_after_the_deadline_does_not_sign(client, drain, waiting, business_day, held_outbox):
    proposal, contract = waiting
    row = Contract.get_by_id(contract["contract_id"])
    business_day.move_to(row.signature_expires_at + timedelta(seconds=1))
    assert callback(
        client, {"process_id": row.unico_process_id, "event": "PROCESS_FINISHED", **PASSING}
    ).status_code in (
        200,
        409,
    )
    drain()
    assert "SIGNED" not in history(proposal.id)
    assert Contract.get_by_id(row.id).signature_status != "SIGNED"

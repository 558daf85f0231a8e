"""POST /v1/sandbox/proposals/{id}/advance: one proposal's test clock runs its deadlines, with the
same status changes and webhooks as when the time passes (README "Sandbox test clock").

The credit conftest freezes the clock (ticking) on a Tuesday, 10:00 in São Paulo."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from models import runtime
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.sandbox_clock import MAX_ADVANCE_SECONDS
from tests.e2e.contract_path import awaiting_signature, history, signing_path

HOUR = 3600
DAY = 24 * HOUR
FAILING = "10000000442"  # payroll unavailable on the first attempt (retryable CRA-DTP-003)


def _advance(flow, proposal_id: str, seconds, partner: str = "PARTNER_A"):
    return flow.post(f"/sandbox/proposals/{proposal_id}/advance", {"seconds": seconds}, partner)


def _advanced(flow, proposal_id: str, seconds) -> dict:
    response = _advance(flow, proposal_id, seconds)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _webhooks(hook) -> list[tuple[str, str]]:
    return [
        (body["status_change"]["old_status"], body["status_change"]["new_status"])
        for body in (json.loads(r.body) for r in hook.received)
    ]


@pytest.fixture
def hook(receiver, configure_partner):
    """Partner A's status webhooks, received by a local endpoint."""
    endpoint = receiver()
    configure_partner(webhook_url=endpoint.url())
    return endpoint


def test_advance_past_the_signature_deadline_expires_it_with_its_webhook(flow, client, auth, hook):
    proposal, contract = awaiting_signature(client, auth, flow.drain)  # generated Tuesday 10:00 local
    deadline = datetime.fromisoformat(contract["digital_signature"]["expires_at"].replace("Z", "+00:00"))
    assert deadline.isoformat() == "2026-03-12T00:00:00+00:00"  # Wednesday 21:00 local
    # One minute before the deadline nothing happens...
    before = int((deadline - Proposal.get_by_id(proposal.id).updated_at).total_seconds()) - 60
    body = _advanced(flow, proposal.id, before)
    assert (body["status"], body["released"], body["exits"]) == ("AWAITING_SIGNATURE", [], [])
    # ...two minutes later the contract has expired, as at the real deadline.
    body = _advanced(flow, proposal.id, 120)
    flow.drain()
    assert body["status"] == "EXPIRED"
    assert body["released"] == ["EXPIRE_SIGNATURE"]
    assert body["sandbox_clock"]["offset_seconds"] == before + 120
    assert history(proposal.id)[-1] == "EXPIRED" and history(proposal.id).count("EXPIRED") == 1
    assert _webhooks(hook)[-1] == ("AWAITING_SIGNATURE", "EXPIRED")
    assert client.post(signing_path(contract), json={}).status_code == 409  # the provider was released


def test_advance_seven_days_lapses_the_offers(flow, hook):
    proposal_id, _ = flow.with_offers()
    body = _advanced(flow, proposal_id, 7 * DAY - 60)
    assert (body["status"], body["exits"]) == ("OFFERS_RECEIVED", [])
    detail = flow.get(f"/proposals/{proposal_id}").get_json()
    assert detail["offers"][0]["is_available"] is True
    body = _advanced(flow, proposal_id, 120)
    flow.drain()
    assert body["status"] == "EXPIRED"
    assert [(e["exit"], e["reason"]) for e in body["exits"]] == [("EXPIRE", "OFFERS_LAPSED")]
    assert _webhooks(hook)[-1] == ("OFFERS_RECEIVED", "EXPIRED")


def test_offers_made_after_an_advance_count_their_seven_days_from_the_simulated_time(flow):
    proposal_id, _ = flow.with_offers()
    body = _advanced(flow, proposal_id, 6 * DAY)
    simulated = flow.post(f"/proposals/{proposal_id}/simulate", {"installments": 24})
    assert simulated.status_code == 200, simulated.get_json()
    offer = simulated.get_json()["offers"][0]
    expires_at = datetime.fromisoformat(offer["expires_at"].replace("Z", "+00:00"))
    simulated_now = datetime.fromisoformat(body["sandbox_clock"]["now"].replace("Z", "+00:00"))
    assert abs(expires_at - (simulated_now + timedelta(days=7))) < timedelta(minutes=1)
    # Past the analysis's offer (day 7), the simulation's offer keeps the proposal alive.
    assert _advanced(flow, proposal_id, DAY + 60)["exits"] == []
    assert flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": offer["id"]}).status_code == 200
    # At day 13 the selected offer lapses too.
    body = _advanced(flow, proposal_id, 6 * DAY)
    assert (body["status"], [e["reason"] for e in body["exits"]]) == ("EXPIRED", ["OFFERS_LAPSED"])


def _failed(flow) -> str:
    proposal_id = flow.validated(FAILING)
    assert flow.analyse(proposal_id).get_json()["status"] == "CREDIT_ANALYSIS_FAILED"
    return proposal_id


def test_a_retry_inside_the_96_hour_window_is_accepted(flow):
    proposal_id = _failed(flow)
    assert _advanced(flow, proposal_id, 96 * HOUR - 5)["status"] == "CREDIT_ANALYSIS_FAILED"
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry")
    assert response.get_json()["status"] == "OFFERS_RECEIVED", response.get_json()


def test_past_the_96_hour_window_the_failure_expires_with_its_webhook(flow, hook):
    proposal_id = _failed(flow)
    body = _advanced(flow, proposal_id, 96 * HOUR + 1)
    flow.drain()
    assert body["status"] == "EXPIRED"
    assert [(e["exit"], e["reason"]) for e in body["exits"]] == [("EXPIRE", "RETRY_WINDOW_LAPSED")]
    assert _webhooks(hook)[-1] == ("CREDIT_ANALYSIS_FAILED", "EXPIRED")
    assert flow.post(f"/proposals/{proposal_id}/credit-analysis/retry").get_json()["errorCode"] == (
        "ANALYSIS_NOT_RETRYABLE"
    )


def test_promotional_reanalysis_is_allowed_twenty_hours_after_approval(flow):
    proposal_id, first = flow.with_offers()
    _advanced(flow, proposal_id, 20 * HOUR)
    response = flow.analyse(proposal_id)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["promotional"] is True
    assert response.get_json()["offer"]["principal_amount"] > first["offer"]["principal_amount"]


def test_reanalysis_before_twenty_hours_is_refused(flow):
    proposal_id, _ = flow.with_offers()
    _advanced(flow, proposal_id, 20 * HOUR - 60)
    response = flow.analyse(proposal_id)
    assert (response.status_code, response.get_json()["errorCode"]) == (409, "CREDIT_ANALYSIS_ALREADY_COMPLETED")


@pytest.fixture
def pay_on_the_date(use_runtime):
    """Production's payment timing: on the disbursement date (next business day, 09:00 local)."""
    booted = runtime.current().settings
    use_runtime(settings={"disbursement": replace(booted.disbursement, pay_immediately=False)})


def test_the_next_business_day_disbursement_happens_after_an_advance(flow, client, auth, hook, pay_on_the_date):
    proposal, contract = awaiting_signature(client, auth, flow.drain)  # Tuesday 10:00 local
    assert client.post(signing_path(contract), json={}).status_code in (200, 303)
    flow.drain()
    assert Proposal.get_by_id(proposal.id).status != "DISBURSED"  # paid Wednesday 09:00 local
    assert _advanced(flow, proposal.id, 22 * HOUR)["released"] == []  # Wednesday 08:00
    flow.drain()
    assert Proposal.get_by_id(proposal.id).status != "DISBURSED"
    assert _advanced(flow, proposal.id, 2 * HOUR)["released"] == ["DISBURSE"]  # Wednesday 10:00
    flow.drain()
    assert Proposal.get_by_id(proposal.id).status == "DISBURSED"
    assert _webhooks(hook)[-1][1] == "DISBURSED"


def test_the_detail_shows_the_simulated_time_once_advanced(flow):
    proposal_id = flow.start()
    assert "sandbox_clock" not in flow.get(f"/proposals/{proposal_id}").get_json()
    before = now()
    body = _advanced(flow, proposal_id, 3 * DAY)
    detail = flow.get(f"/proposals/{proposal_id}").get_json()
    after = now()
    clock = detail["sandbox_clock"]
    assert clock["offset_seconds"] == body["sandbox_clock"]["offset_seconds"] == 3 * DAY
    shown = datetime.fromisoformat(clock["now"].replace("Z", "+00:00"))
    assert before + timedelta(days=3) - timedelta(milliseconds=1) <= shown <= after + timedelta(days=3)


def test_thirty_idle_days_expire_a_proposal(flow, hook):
    proposal_id = flow.start()
    flow.contact(proposal_id)
    body = _advanced(flow, proposal_id, 30 * DAY)
    flow.drain()
    assert [(e["exit"], e["reason"]) for e in body["exits"]] == [("EXPIRE", "IDLE")]
    assert _webhooks(hook)[-1] == ("TOKEN_SENT", "EXPIRED")


def test_another_origins_proposal_is_refused(flow):
    proposal_id = flow.start()
    response = _advance(flow, proposal_id, DAY, partner="PARTNER_B")
    assert response.status_code == 403
    assert response.get_json()["errorCode"] == "FORBIDDEN"
    assert Proposal.get_by_id(proposal_id).clock_offset_seconds == 0


def test_an_unknown_proposal_is_404(flow):
    response = _advance(flow, "0b9d3c7e-8a51-4c3f-9a0e-2f4f1c6d7e8a", DAY)
    assert (response.status_code, response.get_json()["errorCode"]) == (404, "PROPOSAL_NOT_FOUND")


@pytest.mark.parametrize("seconds", [0, -1, MAX_ADVANCE_SECONDS + 1, 1.5, "60", True, None])
def test_seconds_outside_its_range_is_400(flow, seconds):
    proposal_id = flow.start()
    response = _advance(flow, proposal_id, seconds)
    assert response.status_code == 400
    body = response.get_json()
    assert (body["errorCode"], body["details"]["field"]) == ("VALIDATION_ERROR", "seconds")
    assert Proposal.get_by_id(proposal_id).clock_offset_seconds == 0


def test_a_missing_body_is_400(flow):
    proposal_id = flow.start()
    response = flow.post(f"/sandbox/proposals/{proposal_id}/advance", {})
    assert (response.status_code, response.get_json()["errorCode"]) == (400, "VALIDATION_ERROR")


def test_the_clock_cannot_run_more_than_a_century_ahead(flow):
    proposal_id = flow.start()
    Proposal.update(clock_offset_seconds=100 * 365 * DAY - 10).where(Proposal.id == proposal_id).execute()
    response = _advance(flow, proposal_id, 11)
    assert (response.status_code, response.get_json()["details"]["field"]) == (400, "seconds")


def test_outside_the_sandbox_the_clock_is_refused(flow, use_runtime):
    """Production does not mount the route (sandbox_routes = false); the use case refuses too."""
    proposal_id = flow.start()
    use_runtime(settings={"sandbox_routes": False})
    response = _advance(flow, proposal_id, DAY)
    assert response.status_code == 404
    assert Proposal.get_by_id(proposal_id).clock_offset_seconds == 0

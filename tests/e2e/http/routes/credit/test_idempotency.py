"""Idempotency-Key on the credit path's POSTs (README, "Idempotency-Key"): a retry replays the first
answer and does nothing again; another request under the key is 422; a key in use is 409; keys are
the origin's own and live 24 hours."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

import pytest

from models import runtime
from models.db.analysis import Offer
from models.db.contact import MessageSend
from models.db.idempotency import IdempotencyRecord
from models.db.proposals import Proposal
from models.domain.idempotency import fingerprint
from models.services.platform import idempotency
from tests.e2e.http.routes.credit.conftest import CONSENT

START = {"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"}
CONTACT = {"email": "maria@example.com", "phone": "+5511987654321"}
SLOW_CPF = "10000000795"  # the sandbox analysis outlasts the hybrid wait: 202


def keyed(flow, url, body, key, partner="PARTNER_A"):
    return flow.client.post(f"/v1{url}", json=body, headers={**flow.auth(partner), "Idempotency-Key": key})


def replayed(response) -> bool:
    return response.headers.get("Idempotent-Replayed") == "true"


def test_a_retried_contact_sends_one_sms_and_replays_the_first_answer(flow):
    proposal_id = flow.start()
    first = keyed(flow, f"/proposals/{proposal_id}/contact", CONTACT, "contact-1")
    again = keyed(flow, f"/proposals/{proposal_id}/contact", CONTACT, "contact-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json() and replayed(again) and not replayed(first)
    messages = flow.get("/sandbox/messages?phone=%2B5511987654321").get_json()
    assert len(messages) == 1
    assert MessageSend.select().where(MessageSend.proposal == proposal_id).count() == 1


def test_without_the_header_a_repeated_request_behaves_as_before(flow):
    proposal_id = flow.start()
    assert flow.post(f"/proposals/{proposal_id}/contact", CONTACT).status_code == 201
    repeated = flow.post(f"/proposals/{proposal_id}/contact", CONTACT)
    assert repeated.status_code == 409 and not replayed(repeated)  # RESEND_COOLDOWN, as without keys


def test_a_retried_simulation_stores_no_new_offers(flow):
    proposal_id, _ = flow.with_offers()
    first = keyed(flow, f"/proposals/{proposal_id}/simulate", {"installments": 24}, "sim-1")
    offers = Offer.select().where(Offer.proposal == proposal_id).count()
    again = keyed(flow, f"/proposals/{proposal_id}/simulate", {"installments": 24}, "sim-1")
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.get_json() == first.get_json() and replayed(again)
    assert Offer.select().where(Offer.proposal == proposal_id).count() == offers


def test_the_same_body_in_another_key_order_is_the_same_request(flow):
    first = keyed(flow, "/proposals/start", START, "start-1")
    again = keyed(flow, "/proposals/start", dict(reversed(START.items())), "start-1")
    assert (first.status_code, again.status_code) == (201, 201) and replayed(again)


@pytest.mark.parametrize(
    "url,body",
    [
        ("/proposals/start", {**START, "full_name": "Joana da Silva"}),  # another body
        ("/proposals/start?async=true", START),  # another query
    ],
)
def test_another_request_under_the_key_is_422_and_runs_nothing(flow, url, body):
    assert keyed(flow, "/proposals/start", START, "start-1").status_code == 201
    response = keyed(flow, url, body, "start-1")
    assert response.status_code == 422
    assert (response.get_json()["errorCode"], response.get_json()["details"]) == (
        "IDEMPOTENCY_KEY_REUSED",
        {"field": "Idempotency-Key"},
    )
    assert Proposal.select().count() == 1


def test_a_key_used_on_another_route_is_422(flow):
    proposal_id = flow.start()
    assert keyed(flow, f"/proposals/{proposal_id}/contact", CONTACT, "k").status_code == 201
    response = keyed(flow, f"/proposals/{proposal_id}/contact/resend-token", None, "k")
    assert (response.status_code, response.get_json()["errorCode"]) == (422, "IDEMPOTENCY_KEY_REUSED")


def test_another_origin_using_the_same_key_is_independent(flow):
    first = keyed(flow, "/proposals/start", START, "shared-key")
    other = keyed(flow, "/proposals/start", {**START, "cpf": "10000000876"}, "shared-key", partner="PARTNER_B")
    assert (first.status_code, other.status_code) == (201, 201)
    assert not replayed(other) and other.get_json()["proposal_id"] != first.get_json()["proposal_id"]
    assert Proposal.get_by_id(other.get_json()["proposal_id"]).origin == "PARTNER_B"
    # and B's key does not replay A's answer either way
    again = keyed(flow, "/proposals/start", {**START, "cpf": "10000000876"}, "shared-key", partner="PARTNER_B")
    assert replayed(again) and again.get_json() == other.get_json()


@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "não"])
def test_a_malformed_key_is_400_in_the_error_body(flow, key):
    response = flow.client.post(
        "/v1/proposals/start",
        json=START,
        headers={**flow.auth(), "Idempotency-Key": key.encode("utf-8").decode("latin-1")},
    )
    assert response.status_code == 400
    body = response.get_json()
    assert (body["errorCode"], body["details"]) == ("VALIDATION_ERROR", {"field": "Idempotency-Key"})
    assert Proposal.select().count() == 0


def test_a_key_of_255_characters_is_accepted(flow):
    assert keyed(flow, "/proposals/start", START, "k" * 255).status_code == 201


def test_a_key_is_replayed_until_24_hours_after_its_first_request_then_free(flow, advance):
    first = keyed(flow, "/proposals/start", START, "start-1")
    assert first.status_code == 201
    advance(timedelta(hours=24) - timedelta(seconds=1))
    last = keyed(flow, "/proposals/start", START, "start-1")
    assert (last.status_code, replayed(last)) == (201, True)
    assert idempotency.purge_expired() == 0
    advance(timedelta(seconds=1))
    assert idempotency.purge_expired() == 1
    fresh = keyed(flow, "/proposals/start", START, "start-1")
    # It runs again: the CPF's active proposal is returned with 200, as a new request gets it.
    assert (fresh.status_code, replayed(fresh)) == (200, False)
    assert fresh.get_json()["proposal_id"] == first.get_json()["proposal_id"]
    reused_after_expiry = keyed(flow, "/proposals/start", {**START, "cpf": "10000000876"}, "start-2")
    assert reused_after_expiry.status_code == 201


def test_an_expired_key_not_yet_purged_is_free_for_another_request(flow, advance):
    assert keyed(flow, "/proposals/start", START, "start-1").status_code == 201
    advance(timedelta(hours=24))
    response = keyed(flow, "/proposals/start", {**START, "cpf": "10000000876"}, "start-1")
    assert (response.status_code, replayed(response)) == (201, False)


def test_a_retry_while_the_first_request_runs_is_409_then_replays_its_answer(flow):
    proposal_id = flow.validated(SLOW_CPF)
    url = f"/proposals/{proposal_id}/credit-analysis"
    answers: list = []
    first = threading.Thread(target=lambda: answers.append(keyed(flow, url, CONSENT, "analysis-1")))
    first.start()
    deadline = time.monotonic() + 5
    while not IdempotencyRecord.select().where(IdempotencyRecord.key == "analysis-1").exists():
        assert time.monotonic() < deadline, "the first request never claimed its key"
        time.sleep(0.02)
    during = keyed(flow, url, CONSENT, "analysis-1")
    first.join(30)
    assert (during.status_code, during.get_json()["errorCode"]) == (409, "IDEMPOTENCY_KEY_IN_USE")
    assert answers and answers[0].status_code == 202  # the hybrid wait ended before the slow analysis
    after = keyed(flow, url, CONSENT, "analysis-1")
    assert (after.status_code, replayed(after), after.get_json()) == (202, True, answers[0].get_json())


def _claim_left_by_a_dead_process(origin: str, key: str, path: str, body: dict) -> None:
    outcome = idempotency.claim(
        origin,
        key,
        fingerprint("POST", path, [], json.dumps(body).encode()),
        method="POST",
        path=path,
        idempotency_settings=runtime.current().settings.idempotency,
    )
    assert outcome.claim is not None


def test_a_claim_whose_request_never_answered_is_taken_over_after_the_in_flight_timeout(flow, advance):
    _claim_left_by_a_dead_process("PARTNER_A", "start-1", "/v1/proposals/start", START)
    assert keyed(flow, "/proposals/start", START, "start-1").status_code == 409
    timeout = runtime.current().settings.idempotency.in_flight_timeout_seconds
    advance(timedelta(seconds=timeout - 1))
    assert keyed(flow, "/proposals/start", START, "start-1").status_code == 409
    advance(timedelta(seconds=1))
    taken_over = keyed(flow, "/proposals/start", START, "start-1")
    assert (taken_over.status_code, replayed(taken_over)) == (201, False)
    assert replayed(keyed(flow, "/proposals/start", START, "start-1"))


def test_parallel_identical_requests_run_once(flow):
    proposal_id = flow.start()
    url = f"/proposals/{proposal_id}/contact"
    headers = {**flow.auth(), "Idempotency-Key": "contact-parallel"}
    answers: list = []

    def send():
        answers.append(flow.client.post(f"/v1{url}", json=CONTACT, headers=headers))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    statuses = sorted(answer.status_code for answer in answers)
    assert len(statuses) == 6 and set(statuses) <= {201, 409}
    ran = [answer for answer in answers if answer.status_code == 201 and not replayed(answer)]
    assert len(ran) == 1  # the others were in use (409) or replays of its answer
    assert all(a.get_json()["errorCode"] == "IDEMPOTENCY_KEY_IN_USE" for a in answers if a.status_code == 409)
    assert MessageSend.select().where(MessageSend.proposal == proposal_id).count() == 1

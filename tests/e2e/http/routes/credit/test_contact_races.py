"""Contact, token validation and resend decide under the proposal's lock.

Two kinds of proof for each rule:

* deterministic, on either backend: the test holds the proposal's lock, sends the request on
  another thread, sees it wait, changes what the request will check, and lets go; the answer
  reflects the change, so the check and the act happened under the lock (a check-then-act would
  have answered from what it read before);
* concurrent: parallel requests (threads, most telling on PostgreSQL where they really overlap)
  never get more than five wrong guesses, never two codes inside the cooldown, and never leave a
  validated proposal with a phone that was not the one validated.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from datetime import timedelta

from models import runtime
from models.db.contact import ContactToken
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.cpf import with_check_digits
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import unit_of_work
from tests.backends import BACKEND

MAX_ATTEMPTS = 5


@contextmanager
def holding_lock(proposal_id: str):
    """The proposal's lock, held by the test until the block ends (then committed)."""
    with unit_of_work():
        locked_proposal(proposal_id)
        yield


def in_thread(call):
    """Run ``call`` on its own thread; returns (thread, answers) where answers[0] is its result."""
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(call()))
    thread.start()
    return thread, answers


def _answer_after(proposal_id: str, call, change):
    """Send ``call`` while the test holds the lock, check it waits, apply ``change`` under the lock,
    release it and return the answer."""
    with holding_lock(proposal_id):
        thread, answers = in_thread(call)
        thread.join(0.5)
        assert thread.is_alive(), "the request decided without waiting for the proposal's lock"
        change()
    thread.join(15)
    assert answers, "the request never answered"
    return answers[0]


def parallel(calls):
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(index, call):
        barrier.wait(10)
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def _sent(flow, cpf: str = "52998224725"):
    proposal_id = flow.start(cpf)
    phone = flow.contact(proposal_id)
    return proposal_id, phone


def _validate(flow, proposal_id, code, phone):
    return lambda: flow.post(f"/proposals/{proposal_id}/contact/validate-token", {"token": code, "phone": phone})


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10**6:06d}"


# --- the wrong-code limit ----------------------------------------------------------------------


def test_a_guess_waits_for_the_lock_and_sees_the_attempts_counted_meanwhile(flow):
    proposal_id, phone = _sent(flow)
    code = flow.code(phone)

    def four_more_wrong_guesses_land_first():
        ContactToken.update(attempts=MAX_ATTEMPTS).where(ContactToken.proposal == proposal_id).execute()

    response = _answer_after(proposal_id, _validate(flow, proposal_id, code, phone), four_more_wrong_guesses_land_first)
    assert (response.status_code, response.get_json()["errorCode"]) == (400, "TOO_MANY_ATTEMPTS")
    assert Proposal.get_by_id(proposal_id).status == "TOKEN_SENT"


def test_parallel_wrong_guesses_get_five_attempts_and_no_more(flow):
    proposal_id, phone = _sent(flow)
    wrong = _wrong(flow.code(phone))
    answers = parallel([_validate(flow, proposal_id, wrong, phone)] * 10)
    codes = sorted(a.get_json()["errorCode"] for a in answers)
    assert codes == ["INVALID_TOKEN"] * MAX_ATTEMPTS + ["TOO_MANY_ATTEMPTS"] * 5
    remaining = sorted(
        a.get_json()["details"]["remaining_attempts"] for a in answers if a.get_json()["errorCode"] == "INVALID_TOKEN"
    )
    assert remaining == [0, 1, 2, 3, 4]  # each guess counted once, one after the other
    assert ContactToken.get(ContactToken.proposal == proposal_id).attempts == MAX_ATTEMPTS


# --- the resend cooldown -----------------------------------------------------------------------


def _resend(flow, proposal_id):
    return lambda: flow.post(f"/proposals/{proposal_id}/contact/resend-token")


def _after_cooldown(advance):
    advance(timedelta(seconds=runtime.current().settings.contact.resend_cooldown_seconds + 1))


def test_a_resend_waits_for_the_lock_and_sees_a_code_sent_meanwhile(flow, advance):
    proposal_id, _ = _sent(flow)
    _after_cooldown(advance)
    proposal = Proposal.get_by_id(proposal_id)

    def another_resend_lands_first():
        ContactToken.create(
            proposal=proposal_id, phone=proposal.phone, token_hash="x", expires_at=now() + timedelta(minutes=5)
        )

    response = _answer_after(proposal_id, _resend(flow, proposal_id), another_resend_lands_first)
    assert (response.status_code, response.get_json()["errorCode"]) == (409, "RESEND_COOLDOWN")


def test_parallel_resends_send_one_code(flow, advance):
    proposal_id, _ = _sent(flow)
    _after_cooldown(advance)
    answers = parallel([_resend(flow, proposal_id)] * 5)
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409, 409]
    assert {a.get_json().get("errorCode") for a in answers if a.status_code == 409} == {"RESEND_COOLDOWN"}
    assert ContactToken.select().where(ContactToken.proposal == proposal_id).count() == 2  # contact + one resend


# --- contact data after validation -------------------------------------------------------------


def _contact(flow, proposal_id, phone):
    return lambda: flow.post(f"/proposals/{proposal_id}/contact", {"email": "maria@example.com", "phone": phone})


def test_a_contact_waits_for_the_lock_and_never_changes_a_phone_validated_meanwhile(flow):
    proposal_id, phone = _sent(flow)
    code, new_phone = flow.code(phone), flow.new_phone()
    validate = _validate(flow, proposal_id, code, phone)

    def validation_lands_first():
        # The validation's own step, under the lock the test holds (as the route would run it).
        Proposal.update(status="TOKEN_VALIDATED").where(Proposal.id == proposal_id).execute()

    response = _answer_after(proposal_id, _contact(flow, proposal_id, new_phone), validation_lands_first)
    assert response.status_code == 409
    saved = Proposal.get_by_id(proposal_id)
    assert (saved.status, saved.phone) == ("TOKEN_VALIDATED", phone)
    assert validate().status_code == 409  # already validated


def test_validation_and_a_new_phone_racing_never_leave_an_unverified_phone_validated(flow):
    rounds = 6 if BACKEND == "services" else 3
    for round_ in range(rounds):
        proposal_id, phone = _sent(flow, with_check_digits(f"{300000000 + round_:09d}"))
        code, new_phone = flow.code(phone), flow.new_phone()
        validated, contacted = parallel(
            [_validate(flow, proposal_id, code, phone), _contact(flow, proposal_id, new_phone)]
        )
        saved = Proposal.get_by_id(proposal_id)
        if validated.status_code == 200:
            # The validation came first: the contact was refused and the phone is the one checked.
            assert (contacted.status_code, saved.status, saved.phone) == (409, "TOKEN_VALIDATED", phone)
        else:
            # The contact came first: a new code went to the new phone and the old one no longer works.
            assert validated.get_json()["errorCode"] in ("PHONE_MISMATCH", "INVALID_TOKEN")
            assert (contacted.status_code, saved.status, saved.phone) == (201, "TOKEN_SENT", new_phone)

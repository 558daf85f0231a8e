"""POST /proposals/start never returns nor blocks on a proposal that can no longer move: it is
EXPIRED there and then (with its webhook) and a new proposal is created. A failure the retry route
can still take is alive: its origin gets it back, another origin may start its own."""

from datetime import timedelta

from models import runtime
from models.db.analysis import CreditAnalysis
from models.db.proposals import Proposal, StatusChange
from models.services.credit.analysis_runner import give_up
from tests.support.announced import assert_announced

ENGINE_ERROR = "10000000604"  # CRA-ENG-001 on every attempt (retryable)
BODY = {"full_name": "Maria da Silva", "birth_date": "1985-04-12"}


def _failed(flow, cpf=ENGINE_ERROR) -> str:
    proposal_id = flow.validated(cpf)
    assert flow.analyse(proposal_id).get_json()["status"] == "CREDIT_ANALYSIS_FAILED"
    return proposal_id


def _start(flow, cpf, partner="PARTNER_A"):
    return flow.post("/proposals/start", {"cpf": cpf, **BODY}, partner)


def _assert_expired_with_webhook(proposal_id: str, reason: str) -> None:
    change = (
        StatusChange.select().where(StatusChange.proposal == proposal_id).order_by(StatusChange.sequence.desc()).get()
    )
    assert (change.new_status, change.trigger, change.details["reason"]) == ("EXPIRED", "PROPOSAL_EXPIRED", reason)
    assert_announced(change)


def test_a_retryable_failure_is_returned_to_its_origin_for_the_retry_route(flow):
    proposal_id = _failed(flow)
    response = _start(flow, ENGINE_ERROR)
    assert (response.status_code, response.get_json()["proposal_id"], response.get_json()["status"]) == (
        200,
        proposal_id,
        "CREDIT_ANALYSIS_FAILED",
    )


def test_a_retryable_failure_does_not_block_another_origin(flow):
    proposal_id = _failed(flow)
    response = _start(flow, ENGINE_ERROR, "PARTNER_B")
    assert response.status_code == 201
    assert Proposal.get_by_id(proposal_id).status == "CREDIT_ANALYSIS_FAILED"


def test_after_the_retry_window_the_failure_expires_and_start_creates_a_new_proposal(flow, advance):
    # (The exact edges are the domain's and the sweep's tests: this clock ticks.)
    proposal_id = _failed(flow)
    window = runtime.current().settings.credit.retry_window_hours
    advance(timedelta(hours=window - 1))
    assert _start(flow, ENGINE_ERROR).status_code == 200
    advance(timedelta(hours=1, seconds=1))
    response = _start(flow, ENGINE_ERROR)
    assert response.status_code == 201 and response.get_json()["proposal_id"] != proposal_id
    assert Proposal.get_by_id(proposal_id).status == "EXPIRED"
    _assert_expired_with_webhook(proposal_id, "RETRY_WINDOW_LAPSED")


def test_after_the_retry_limit_start_creates_a_new_proposal(flow, advance):
    proposal_id = _failed(flow)
    for _ in range(runtime.current().settings.credit.retry_limit):
        advance(timedelta(seconds=runtime.current().settings.credit.retry_dedup_seconds + 1))
        assert flow.post(f"/proposals/{proposal_id}/credit-analysis/retry/async").status_code == 202
        flow.drain()
    assert Proposal.get_by_id(proposal_id).status == "CREDIT_ANALYSIS_FAILED"
    response = _start(flow, ENGINE_ERROR)
    assert response.status_code == 201
    _assert_expired_with_webhook(proposal_id, "RETRY_LIMIT_REACHED")


def test_an_internal_error_is_not_retryable_and_frees_the_cpf_at_once(flow, held_outbox):
    proposal_id = flow.validated()
    flow.analyse(proposal_id, suffix="/async")  # held: the analysis message is never run
    analysis = CreditAnalysis.get(CreditAnalysis.proposal == proposal_id)
    give_up(analysis.id, "KeyError")  # what the actor's give-up hook does after its last try
    assert Proposal.get_by_id(proposal_id).status == "CREDIT_ANALYSIS_FAILED"
    response = _start(flow, "52998224725")
    assert response.status_code == 201
    _assert_expired_with_webhook(proposal_id, "NOT_RETRYABLE")


def test_lapsed_offers_free_the_cpf(flow, advance):
    proposal_id, _ = flow.with_offers()
    assert _start(flow, "52998224725").status_code == 200
    advance(timedelta(days=runtime.current().settings.credit.pricing.offer_validity_days))
    response = _start(flow, "52998224725")
    assert response.status_code == 201
    _assert_expired_with_webhook(proposal_id, "OFFERS_LAPSED")

"""POST credit-analysis/retry: sync, ?async=true and /retry/async; the retry rules."""

from datetime import timedelta

import pytest

from models.db.analysis import CreditAnalysis
from models.db.proposals import Consent

FAILING = "10000000442"  # payroll unavailable on the first attempt, a retry succeeds


def _failed(flow, cpf=FAILING, partner="PARTNER_A") -> str:
    proposal_id = flow.validated(cpf, partner)
    assert flow.analyse(proposal_id, partner).get_json()["status"] == "CREDIT_ANALYSIS_FAILED"
    return proposal_id


def test_synchronous_retry_answers_200_with_the_new_result(flow):
    proposal_id = _failed(flow)
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry")
    body = response.get_json()
    assert response.status_code == 200
    assert {k: v for k, v in body.items() if k not in ("offer", "insuredOffer")} == {
        "message": "Credit analysis retry approved with offers",
        "proposal_id": proposal_id,
        "status": "OFFERS_RECEIVED",
        "approved": True,
        "available_margin": 1000.0,
        "maxLoanAmount": 41260.18,
        "maxInstallments": 96,
        "bank_skip": False,
    }
    assert body["offer"]["offer_type"] == "STANDARD" and body["insuredOffer"]["offer_type"] == "INSURED"


@pytest.mark.parametrize("suffix", ["/retry/async", "/retry?async=true"])
def test_async_retry_variants_answer_202_then_offers(flow, suffix):
    proposal_id = _failed(flow)
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis{suffix}")
    assert response.status_code == 202
    assert response.get_json()["status"] == "CREDIT_ANALYSIS_IN_PROGRESS"
    flow.drain()
    assert flow.get(f"/proposals/{proposal_id}/credit-analysis").get_json()["status"] == "OFFERS_RECEIVED"


def test_retry_of_a_rejection_is_400_not_retryable(flow):
    proposal_id = flow.validated("10000000108")
    flow.analyse(proposal_id)
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry")
    assert response.status_code == 400
    assert response.get_json() == {
        "statusCode": 400,
        "error": "Bad Request",
        "errorCode": "ANALYSIS_NOT_RETRYABLE",
        "message": "Only a retryable technical failure of the payroll system or the credit engine can be retried",
        "details": {"currentStatus": "REJECTED", "requiredStatus": "CREDIT_ANALYSIS_FAILED"},
    }


def test_retry_without_saved_consent_is_400(flow):
    proposal_id = _failed(flow)
    Consent.delete().where(Consent.proposal == proposal_id).execute()
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry")
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "CONSENT_NOT_FOUND"


def test_retry_after_96_hours_is_400(flow, advance):
    proposal_id = _failed(flow)
    advance(timedelta(hours=96, seconds=1))
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry")
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "RETRY_WINDOW_EXPIRED"


def test_retry_within_96_hours_is_accepted(flow, advance):
    proposal_id = _failed(flow)
    advance(timedelta(hours=95))
    assert flow.post(f"/proposals/{proposal_id}/credit-analysis/retry").get_json()["status"] == "OFFERS_RECEIVED"


def test_retry_of_another_origin_is_403(flow):
    proposal_id = _failed(flow)
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry", partner="PARTNER_B")
    assert response.status_code == 403


def test_second_retry_inside_the_dedup_window_is_200_with_a_message(flow):
    proposal_id = _failed(flow, "10000000604")  # the engine keeps failing
    assert flow.post(f"/proposals/{proposal_id}/credit-analysis/retry").get_json()["status"] == "CREDIT_ANALYSIS_FAILED"
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry/async")
    assert response.status_code == 200
    assert response.get_json() == {
        "message": "A retry of this proposal was requested less than 30 seconds ago; poll "
        "GET /proposals/{id}/credit-analysis for its result",
        "proposal_id": proposal_id,
        "status": "CREDIT_ANALYSIS_FAILED",
        "status_url": f"/proposals/{proposal_id}/credit-analysis",
    }


def test_retry_limit_is_answered_200_with_a_message(flow, advance):
    proposal_id = _failed(flow, "10000000604")
    for _ in range(3):
        flow.post(f"/proposals/{proposal_id}/credit-analysis/retry")
        advance(timedelta(seconds=31))
    response = flow.post(f"/proposals/{proposal_id}/credit-analysis/retry?async=true")
    assert response.status_code == 200
    assert response.get_json()["message"].startswith("The retry limit (3) of this proposal has been reached")
    assert CreditAnalysis.select().where(CreditAnalysis.proposal == proposal_id).count() == 4

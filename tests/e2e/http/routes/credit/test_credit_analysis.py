"""Credit analysis: hybrid, async and legacy modes, polling, every sandbox CPF, re-analysis."""

from datetime import timedelta
from decimal import Decimal

import pytest

from models import runtime
from models.db.analysis import CreditAnalysis
from models.db.proposals import Consent, Proposal, StatusChange

from .conftest import CONSENT


def _statuses(proposal_id):
    return [
        c.new_status
        for c in StatusChange.select().where(StatusChange.proposal == proposal_id).order_by(StatusChange.sequence)
    ]


def test_approved_body_for_a_partner_with_insurance(flow):
    """Spec, analysis success body: "`bank_skip` (boolean; whether bank validation can be skipped)":
    always false, fixed by the product (README, "Choices where the spec is open")."""
    proposal_id = flow.validated()
    response = flow.analyse(proposal_id)
    body = response.get_json()
    assert response.status_code == 201
    assert list(body) == [
        "message",
        "proposal_id",
        "status",
        "approved",
        "offer",
        "insuredOffer",
        "product",
        "insuredProduct",
        "available_margin",
        "maxLoanAmount",
        "maxInstallments",
        "maxMonthlyPayment",
        "minMonthlyPayment",
        "bank_skip",
    ]
    assert {k: v for k, v in body.items() if k not in ("offer", "insuredOffer")} == {
        "message": "Credit analysis approved with offers",
        "proposal_id": proposal_id,
        "status": "OFFERS_RECEIVED",
        "approved": True,
        "product": {"id": runtime.current().settings.products.standard_id, "name": "Consignado Privado"},
        "insuredProduct": {
            "id": runtime.current().settings.products.insured_id,
            "name": "Consignado Privado com Seguro Prestamista",
        },
        "available_margin": "1000.00",
        "maxLoanAmount": 41260.18,
        "maxInstallments": 96,
        "maxMonthlyPayment": "1000.00",
        "minMonthlyPayment": 30.0,
        "bank_skip": False,
    }
    offer = body["offer"]
    assert (
        offer["offer_type"],
        offer["status"],
        offer["principal_amount"],
        offer["installments"],
        offer["installment_amount"],
        offer["interest_rate"],
        offer["first_due_date"],
        offer["is_available"],
    ) == ("STANDARD", "ACTIVE", 41260.18, 96, 1000.0, 1.99, "2026-04-05", True)
    assert body["insuredOffer"]["offer_type"] == "INSURED" and body["insuredOffer"]["insurance_amount"] > 0


def test_partner_without_insurance_gets_no_insured_offer_nor_products(flow):
    proposal_id = flow.validated(partner="PARTNER_B")
    body = flow.analyse(proposal_id, "PARTNER_B").get_json()
    assert "insuredOffer" not in body and "product" not in body and "insuredProduct" not in body
    assert body["offer"]["offer_type"] == "STANDARD"


def test_approval_snapshot_and_consent_are_stored(flow):
    proposal_id = flow.validated()
    flow.analyse(proposal_id)
    analysis = CreditAnalysis.get(CreditAnalysis.proposal == proposal_id)
    assert (
        analysis.outcome,
        analysis.available_margin,
        analysis.max_loan_amount,
        analysis.pod_limit_max,
        analysis.promotional_pod_limit_max,
    ) == ("APPROVED", Decimal("1000.00"), Decimal("41260.18"), Decimal("50000.00"), Decimal("60000.00"))
    assert analysis.approved_at is not None
    consent = Consent.get_by_id(analysis.consent_id)
    assert (consent.ip, consent.latitude, consent.longitude, consent.channel) == (
        "203.0.113.10",
        -23.5505,
        -46.6333,
        "web",
    )


def test_approval_emits_credit_check_completed_then_offers_received(flow):
    proposal_id = flow.validated()
    flow.analyse(proposal_id)
    assert _statuses(proposal_id)[-3:] == ["CREDIT_ANALYSIS_IN_PROGRESS", "CREDIT_CHECK_COMPLETED", "OFFERS_RECEIVED"]


@pytest.mark.parametrize(
    "cpf,reason,message",
    [
        ("10000000108", "NO_AVAILABLE_MARGIN", "Credit analysis rejected: no available payroll margin"),
        ("10000000280", "IRREGULAR_CPF", "Credit analysis rejected: the CPF is irregular at the tax authority"),
        ("10000000361", "INSUFFICIENT_SCORE", "Credit analysis rejected: insufficient credit score"),
    ],
)
def test_sandbox_rejections_answer_200_with_the_reason(flow, cpf, reason, message):
    proposal_id = flow.validated(cpf)
    response = flow.analyse(proposal_id)
    assert response.status_code == 200
    assert response.get_json() == {
        "proposal_id": proposal_id,
        "status": "REJECTED",
        "approved": False,
        "rejection_reason": reason,
        "message": message,
        "offer": None,
        "insuredOffer": None,
        "maxLoanAmount": 0,
        "maxInstallments": 0,
        "bank_skip": False,
    }
    assert _statuses(proposal_id)[-1] == "REJECTED"
    assert flow.get(f"/proposals/{proposal_id}/credit-analysis").get_json() == response.get_json()


@pytest.mark.parametrize("birth_date", ["2010-01-01", "1940-01-01"])
def test_age_outside_the_policy_is_rejected_for_age_criteria(flow, birth_date):
    proposal_id = flow.validated(birth_date=birth_date)
    body = flow.analyse(proposal_id).get_json()
    assert (body["status"], body["rejection_reason"], body["message"]) == (
        "REJECTED",
        "AGE_CRITERIA",
        "Credit analysis rejected: age outside the credit policy",
    )


@pytest.mark.parametrize(
    "cpf,code,title",
    [
        ("10000000442", "CRA-DTP-003", "Payroll system unavailable"),
        ("10000000604", "CRA-ENG-001", "Credit analysis unavailable"),
    ],
)
def test_technical_failures_answer_200_with_error_code_and_friendly_message(flow, cpf, code, title):
    proposal_id = flow.validated(cpf)
    response = flow.analyse(proposal_id)
    body = response.get_json()
    assert response.status_code == 200
    assert body == {
        "proposal_id": proposal_id,
        "status": "CREDIT_ANALYSIS_FAILED",
        "approved": False,
        "error_code": code,
        "message": "Credit analysis failed for a technical reason",
        "friendly_message": {"title": title, "description": body["friendly_message"]["description"]},
        "offer": None,
        "insuredOffer": None,
        "retryable": True,
    }
    assert _statuses(proposal_id)[-1] == "CREDIT_ANALYSIS_FAILED"


def test_payroll_failure_with_automatic_retry_then_offers(flow, advance):
    """Spec, Asynchronous-processing acknowledgement: "status | string | `CREDIT_ANALYSIS_IN_PROGRESS`
    or `CONTRACT_GENERATION_IN_PROGRESS`"; GET polling: "202: acknowledgement with `status` =
    `CREDIT_ANALYSIS_IN_PROGRESS`". The scheduled automatic retry is told in proposal_status."""
    proposal_id = flow.validated("10000000523")
    response = flow.analyse(proposal_id)
    body = response.get_json()
    assert response.status_code == 202
    assert body == {
        "async_processing": True,
        "message": "The payroll system failed; an automatic retry is scheduled at retry_at",
        "proposal_id": proposal_id,
        "status": "CREDIT_ANALYSIS_IN_PROGRESS",
        "processing_started_at": body["processing_started_at"],
        "status_url": f"/proposals/{proposal_id}/credit-analysis",
        "proposal_status": "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
        "retry_at": body["retry_at"],
    }
    flow.drain()
    assert Proposal.get_by_id(proposal_id).status == "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"
    polling = flow.get(f"/proposals/{proposal_id}/credit-analysis")
    assert polling.status_code == 202
    assert (polling.get_json()["status"], polling.get_json()["proposal_status"]) == (
        "CREDIT_ANALYSIS_IN_PROGRESS",
        "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
    )
    assert polling.get_json()["retry_at"] == body["retry_at"]
    advance(timedelta(seconds=runtime.current().settings.credit.payroll_auto_retry_seconds + 1))
    flow.drain()
    polled = flow.get(f"/proposals/{proposal_id}/credit-analysis")
    assert polled.status_code == 200 and polled.get_json()["status"] == "OFFERS_RECEIVED"
    assert _statuses(proposal_id)[3:] == [
        "CREDIT_ANALYSIS_IN_PROGRESS",
        "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
        "CREDIT_ANALYSIS_IN_PROGRESS",
        "CREDIT_CHECK_COMPLETED",
        "OFFERS_RECEIVED",
    ]


def test_maintenance_window_schedules_the_retry_at_its_end(flow, business_clock):
    proposal_id = flow.validated()
    business_clock.move_to("2026-03-21T02:00:00Z")  # 20th 23:00 in São Paulo
    body = flow.analyse(proposal_id).get_json()
    assert (body["status"], body["proposal_status"]) == (
        "CREDIT_ANALYSIS_IN_PROGRESS",
        "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
    )
    assert body["retry_at"] == "2026-03-23T09:00:00.000Z"  # 23rd 06:00 local


def test_slow_analysis_answers_202_then_offers_on_polling(flow):
    proposal_id = flow.validated("10000000795")
    response = flow.analyse(proposal_id)
    assert response.status_code == 202
    assert response.get_json()["status"] == "CREDIT_ANALYSIS_IN_PROGRESS"
    assert response.get_json()["proposal_status"] == "CREDIT_ANALYSIS_IN_PROGRESS"
    assert "retry_at" not in response.get_json()
    assert flow.get(f"/proposals/{proposal_id}/credit-analysis").status_code == 202
    flow.drain()
    polled = flow.get(f"/proposals/{proposal_id}/credit-analysis")
    assert polled.status_code == 200 and polled.get_json()["status"] == "OFFERS_RECEIVED"


@pytest.mark.parametrize("suffix", ["/async", "?async=true"])
def test_async_variants_answer_202_at_once(flow, suffix):
    proposal_id = flow.validated()
    response = flow.analyse(proposal_id, suffix=suffix)
    body = response.get_json()
    assert response.status_code == 202
    assert body == {
        "async_processing": True,
        "message": "Credit analysis in progress; poll status_url every 2 seconds or wait for the status webhook",
        "proposal_id": proposal_id,
        "status": "CREDIT_ANALYSIS_IN_PROGRESS",
        "processing_started_at": body["processing_started_at"],
        "status_url": f"/proposals/{proposal_id}/credit-analysis",
        "proposal_status": "CREDIT_ANALYSIS_IN_PROGRESS",
    }
    flow.drain()
    assert flow.get(f"/proposals/{proposal_id}/credit-analysis").get_json()["status"] == "OFFERS_RECEIVED"


def test_analysis_in_progress_is_409_without_error_code(flow):
    proposal_id = flow.validated("10000000795")
    flow.analyse(proposal_id, suffix="/async")
    response = flow.analyse(proposal_id)
    flow.drain()
    assert response.status_code == 409
    body = response.get_json()
    assert "errorCode" not in body and "30 seconds" in body["message"]


def test_completed_analysis_is_409_already_completed(flow):
    proposal_id, _ = flow.with_offers()
    response = flow.analyse(proposal_id)
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "CREDIT_ANALYSIS_ALREADY_COMPLETED"


def test_a_rejected_analysis_is_409_already_completed(flow):
    """Spec, 409 codes: "credit-analysis | CREDIT_ANALYSIS_ALREADY_COMPLETED | result already
    available": a rejection is a result, served by GET credit-analysis."""
    proposal_id = flow.validated("10000000108")
    assert flow.analyse(proposal_id).get_json()["status"] == "REJECTED"
    response = flow.analyse(proposal_id)
    assert response.status_code == 409
    assert (response.get_json()["errorCode"], response.get_json()["details"]["currentStatus"]) == (
        "CREDIT_ANALYSIS_ALREADY_COMPLETED",
        "REJECTED",
    )
    assert flow.get(f"/proposals/{proposal_id}/credit-analysis").get_json()["status"] == "REJECTED"


def test_promotional_reanalysis_after_twenty_hours(flow, advance):
    proposal_id, first = flow.with_offers()
    advance(timedelta(hours=20))
    response = flow.analyse(proposal_id)
    body = response.get_json()
    assert response.status_code == 201
    assert body["promotional"] is True and body["offer"]["interest_rate"] == 1.79
    assert body["offer"]["principal_amount"] > first["offer"]["principal_amount"]
    assert CreditAnalysis.select().where(CreditAnalysis.proposal == proposal_id).count() == 2


def test_reanalysis_from_pre_accepted_recalculates_offers(flow):
    proposal_id, first = flow.with_offers()
    flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": first["offer"]["id"]})
    response = flow.analyse(proposal_id)
    assert response.status_code == 201
    assert response.get_json()["offer"]["id"] != first["offer"]["id"]
    assert Proposal.get_by_id(proposal_id).selected_offer_id is None
    stale = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": first["offer"]["id"]})
    assert stale.get_json()["errorCode"] == "OFFER_NOT_AVAILABLE"


def test_polling_before_any_analysis_is_404(flow):
    response = flow.get(f"/proposals/{flow.validated()}/credit-analysis")
    assert response.status_code == 404
    assert response.get_json()["errorCode"] == "CREDIT_ANALYSIS_NOT_FOUND"


def test_analysis_before_token_validation_is_409(flow):
    response = flow.analyse(flow.start())
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "INVALID_STATUS_FOR_CREDIT_ANALYSIS"


def test_missing_consent_field_is_400(flow):
    body = {k: v for k, v in CONSENT.items() if k != "document_text"}
    response = flow.post(f"/proposals/{flow.validated()}/credit-analysis", body)
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == "document_text"


@pytest.mark.parametrize("cpf", ["10000000876", "10000000957", "10000001090", "10000001171"])
def test_contract_path_sandbox_cpfs_are_approved_with_offers(flow, cpf):
    proposal_id = flow.validated(cpf)
    body = flow.analyse(proposal_id).get_json()
    assert body["status"] == "OFFERS_RECEIVED" and body["offer"]["is_available"] is True


def test_polling_an_approved_analysis_answers_its_outcome_whatever_the_proposal_did_since(flow):
    """Spec, GET credit-analysis: "200 approved: same shape as the synchronous POST success", whose
    body has "`status` (`OFFERS_RECEIVED`)": the analysis's outcome, not the proposal's status."""
    proposal_id, analysed = flow.with_offers()
    flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": analysed["offer"]["id"]})
    assert Proposal.get_by_id(proposal_id).status == "PRE_ACCEPTED"
    polled = flow.get(f"/proposals/{proposal_id}/credit-analysis")
    assert polled.status_code == 200
    assert (polled.get_json()["status"], polled.get_json()["approved"]) == ("OFFERS_RECEIVED", True)


SANDBOX_EMPLOYMENT = {
    "employer_document": "00000000000191",
    "employer_name": "EMPRESA SANDBOX LTDA",
    "admission_date": "2018-03-01",
    "gross_salary": "5000.00",
}


@pytest.mark.parametrize(
    "cpf,outcome,margin",
    [
        ("52998224725", "APPROVED", "1000.00"),
        ("10000000108", "REJECTED", "0.00"),  # no margin
        ("10000000361", "REJECTED", "1000.00"),  # the engine's rejection, after the margin was read
        ("10000000604", "FAILED", "1000.00"),  # the engine's error, after the margin was read
    ],
)
def test_each_analysis_keeps_what_the_payroll_system_answered(flow, cpf, outcome, margin):
    """analysis-data (spec: "GET /proposals/{id}/analysis-data ... shapes: not shown") serves the
    payroll system's answer stored at each analysis: margin, employer, admission date, salary."""
    proposal_id = flow.validated(cpf)
    flow.analyse(proposal_id)
    (analysis,) = flow.get(f"/proposals/{proposal_id}/analysis-data").get_json()["analyses"]
    assert (analysis["outcome"], analysis["margin_snapshot"]) == (
        outcome,
        {"available_margin": margin, **SANDBOX_EMPLOYMENT},
    )


@pytest.mark.parametrize("cpf,birth_date", [("10000000442", "1985-04-12"), ("52998224725", "2010-01-01")])
def test_an_analysis_that_never_read_the_margin_has_no_snapshot(flow, cpf, birth_date):
    # Payroll system unavailable, or an age rejection before it is asked
    proposal_id = flow.validated(cpf, birth_date=birth_date)
    flow.analyse(proposal_id)
    (analysis,) = flow.get(f"/proposals/{proposal_id}/analysis-data").get_json()["analyses"]
    assert analysis["outcome"] in ("FAILED", "REJECTED") and analysis["margin_snapshot"] is None

"""Views of the credit analysis routes (spec: analysis response, polling, retry), serialized by
schemas.credit_analysis (AnalysisResult, RetryResult) and the acknowledgement schema."""

from __future__ import annotations

from httpapi.presenters.acknowledgement import acknowledgement_view
from models import runtime
from models.domain.lifecycles import AnalysisOutcome
from models.domain.policies import BANK_VALIDATION_SKIPPABLE
from models.services.credit.analysis_reads import FinishedAnalysis
from models.services.credit.offers import current_offer
from models.services.credit.products import product_ref
from models.services.platform.proposal_clock import proposal_now

REJECTION_MESSAGES = {
    "NO_AVAILABLE_MARGIN": "Credit analysis rejected: no available payroll margin",
    "IRREGULAR_CPF": "Credit analysis rejected: the CPF is irregular at the tax authority",
    "AGE_CRITERIA": "Credit analysis rejected: age outside the credit policy",
    "INSUFFICIENT_SCORE": "Credit analysis rejected: insufficient credit score",
}
FAILURES = {
    "CRA-DTP-003": (
        "Payroll system unavailable",
        "The government payroll system did not answer. Try again in a few minutes with the retry route.",
    ),
    "CRA-ENG-001": (
        "Credit analysis unavailable",
        "The credit engine had a temporary failure. Try again in a few minutes with the retry route.",
    ),
    "CRA-INT-001": (
        "Credit analysis could not be completed",
        "An internal error stopped the analysis. Contact support with the proposal id.",
    ),
}


def status_url(proposal_id: str) -> str:
    return f"/proposals/{proposal_id}/credit-analysis"


def retry_refusal(proposal_id: str, refusal) -> dict:
    """200 body of a retry inside the dedup window or past the retry limit: where to read the result."""
    return {
        "message": refusal.message,
        "proposal_id": proposal_id,
        "status": refusal.current_status,
        "status_url": status_url(proposal_id),
    }


def acknowledgement(analysis) -> dict:
    """202 body for a running analysis. ``status`` is always the spec's CREDIT_ANALYSIS_IN_PROGRESS
    (the acknowledgement's two values); ``proposal_status`` carries the finer state, which is
    PAYROLL_SYSTEM_FAILED_AWAITING_RETRY while an automatic retry is scheduled (then ``retry_at``
    says when it runs)."""
    proposal_id = analysis.proposal_id
    body = acknowledgement_view(
        proposal_id,
        "CREDIT_ANALYSIS_IN_PROGRESS",
        analysis.started_at,
        status_url(proposal_id),
        "Credit analysis in progress; poll status_url every 2 seconds or wait for the status webhook",
    )
    if analysis.outcome == AnalysisOutcome.AWAITING_RETRY:
        return body | {
            "message": "The payroll system failed; an automatic retry is scheduled at retry_at",
            "proposal_status": "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
            "retry_at": analysis.retry_at,
        }
    return body | {"proposal_status": "CREDIT_ANALYSIS_IN_PROGRESS"}


def _approved(result: FinishedAnalysis) -> dict:
    # ``status`` is the analysis's outcome (spec: approved, "status (OFFERS_RECEIVED)"), not the
    # proposal's status of now, which moves on (PRE_ACCEPTED, CONTRACT_GENERATED...) while the
    # analysis and its answer stay the same.
    proposal, analysis = result.proposal, result.analysis
    selected, at = proposal.selected_offer_id, proposal_now(proposal)
    body = {
        "message": "Credit analysis approved with offers",
        "proposal_id": proposal.id,
        "status": "OFFERS_RECEIVED",
        "approved": True,
        "offer": current_offer(result.offer, selected_offer_id=selected, at=at),
    }
    settings = runtime.current().settings
    if result.insurance_enabled:
        body.update(
            insuredOffer=current_offer(result.insured_offer, selected_offer_id=selected, at=at),
            product=product_ref(False, products_settings=settings.products),
            insuredProduct=product_ref(True, products_settings=settings.products),
        )
    body.update(
        available_margin=analysis.available_margin,
        maxLoanAmount=analysis.max_loan_amount,
        maxInstallments=analysis.max_installments,
        maxMonthlyPayment=analysis.max_monthly_payment,
        minMonthlyPayment=analysis.min_monthly_payment,
        bank_skip=BANK_VALIDATION_SKIPPABLE,
    )
    if analysis.promotional:
        body["promotional"] = True
    return body


def _rejected(proposal, analysis) -> dict:
    reason = analysis.rejection_reason
    return {
        "proposal_id": proposal.id,
        "status": "REJECTED",
        "approved": False,
        "rejection_reason": reason,
        "message": REJECTION_MESSAGES.get(reason, "Credit analysis rejected by the credit policy"),
        "offer": None,
        "insuredOffer": None,
        "maxLoanAmount": 0,
        "maxInstallments": 0,
        "bank_skip": BANK_VALIDATION_SKIPPABLE,
    }


def _failed(proposal, analysis) -> dict:
    title, description = FAILURES.get(analysis.error_code, FAILURES["CRA-INT-001"])
    return {
        "proposal_id": proposal.id,
        "status": "CREDIT_ANALYSIS_FAILED",
        "approved": False,
        "error_code": analysis.error_code,
        "message": "Credit analysis failed for a technical reason",
        "friendly_message": {"title": title, "description": description},
        "offer": None,
        "insuredOffer": None,
        "retryable": bool(analysis.retryable),
    }


def result_body(result: FinishedAnalysis) -> dict:
    """200/201 body of a finished analysis (approved, rejected or technical failure)."""
    proposal, analysis = result.proposal, result.analysis
    if analysis.outcome == AnalysisOutcome.APPROVED:
        return _approved(result)
    if analysis.outcome == AnalysisOutcome.REJECTED:
        return _rejected(proposal, analysis)
    assert analysis.outcome == AnalysisOutcome.FAILED
    return _failed(proposal, analysis)


def retry_body(result: FinishedAnalysis) -> dict:
    """200 body of the synchronous retry (RetryResult serializes available_margin as a number)."""
    body = result_body(result)
    analysis = result.analysis
    if analysis.outcome == AnalysisOutcome.APPROVED:
        body = {
            k: v
            for k, v in body.items()
            if k not in ("product", "insuredProduct", "maxMonthlyPayment", "minMonthlyPayment")
        }
        body["message"] = "Credit analysis retry approved with offers"
    return body

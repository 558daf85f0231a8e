"""Credit analysis: hybrid, explicit async and legacy ?async=true; polling; retry (3 variants)."""

from __future__ import annotations

from models import runtime
from models.domain.lifecycles import FINISHED_OUTCOMES, AnalysisOutcome
from models.services.credit.analysis import ConsentData, RetryRefusal, retry, start_analysis
from models.services.credit.analysis_reads import analysis_of, await_analysis, finished_analysis
from schemas.async_processing import Acknowledgement, AsyncQuery
from schemas.credit_analysis import AnalysisResult, CreditAnalysisRequest, RetryResult

from ..auth import current_origin, current_partner
from ..blueprint import FORBIDDEN, INVALID_BODY, INVALID_QUERY, PROPOSAL_NOT_FOUND, Blueprint
from ..errors import ApiError
from ..presenters.credit_analysis import acknowledgement, result_body, retry_body, retry_refusal
from ..presenters.responses import serialized

blp = Blueprint("credit_analysis", __name__, description="Credit analysis")
BASE = "/proposals/<proposal_id>/credit-analysis"
IN_PROGRESS = "In progress (no errorCode; wait 30 seconds), CREDIT_ANALYSIS_ALREADY_COMPLETED, or the status does not allow an analysis (details.currentStatus)"
START_ERRORS = {
    400: INVALID_BODY,
    403: FORBIDDEN,
    404: PROPOSAL_NOT_FOUND,
    409: IN_PROGRESS,
}
RETRY_ERRORS = {
    400: INVALID_QUERY + "; ANALYSIS_NOT_RETRYABLE, CONSENT_NOT_FOUND, RETRY_WINDOW_EXPIRED",
    403: FORBIDDEN,
    404: PROPOSAL_NOT_FOUND,
    409: "The status does not allow a retry (details.currentStatus)",
}


def _consent(body: dict) -> ConsentData:
    geo = body["geolocation"]
    return ConsentData(
        ip=str(body["ip"]),
        latitude=geo["latitude"],
        longitude=geo["longitude"],
        document_text=body["document_text"],
        channel=body["channel"],
    )


def _answer(analysis, *, wait: float | None, created: int = 201):
    """Wait (hybrid) then 201 approved (200 when polled) / 200 rejected or failed, else the 202
    acknowledgement."""
    if wait:
        analysis = await_analysis(analysis, wait)
    if analysis.outcome not in FINISHED_OUTCOMES:
        return serialized(Acknowledgement, acknowledgement(analysis), 202)
    body = result_body(finished_analysis(analysis, current_partner()))
    return body, created if analysis.outcome == AnalysisOutcome.APPROVED else 200


@blp.route(BASE, methods=["POST"], endpoint="start_credit_analysis")
@blp.arguments(CreditAnalysisRequest)
@blp.arguments(AsyncQuery, location="query")
@blp.response(201, AnalysisResult, description="Approved within the hybrid wait (full result)")
@blp.alt_response(
    200, schema=AnalysisResult, description="Rejected (rejection_reason) or technical failure (error_code)"
)
@blp.alt_response(202, schema=Acknowledgement, description="Still running after the hybrid wait, or ?async=true")
@blp.errors(START_ERRORS)
def analyse(body, query, proposal_id):
    """Hybrid analysis (waits up to ~28 s); ``?async=true`` is the legacy form of /async."""
    mode = "async" if query["async_"] else "hybrid"
    analysis = start_analysis(current_origin(), proposal_id, _consent(body), mode)
    return _answer(analysis, wait=None if query["async_"] else runtime.current().settings.credit.hybrid_wait_seconds)


@blp.route(BASE + "/async", methods=["POST"], endpoint="start_credit_analysis_async")
@blp.arguments(CreditAnalysisRequest)
@blp.response(202, Acknowledgement)
@blp.errors(START_ERRORS)
def analyse_async(body, proposal_id):
    """Start the analysis and answer 202 at once; poll GET credit-analysis or use the webhook."""
    return acknowledgement(start_analysis(current_origin(), proposal_id, _consent(body), "async"))


@blp.route(BASE, methods=["GET"], endpoint="get_credit_analysis")
@blp.response(200, AnalysisResult, description="Approved, rejected or technical failure")
@blp.alt_response(202, schema=Acknowledgement, description="Still running")
@blp.errors({403: FORBIDDEN, 404: PROPOSAL_NOT_FOUND + " or CREDIT_ANALYSIS_NOT_FOUND (analysis not started)"})
def poll(proposal_id):
    """The latest analysis of the proposal."""
    analysis = analysis_of(current_origin(), proposal_id)
    if analysis is None:
        raise ApiError(404, "Credit analysis not started for this proposal", error_code="CREDIT_ANALYSIS_NOT_FOUND")
    return _answer(analysis, wait=None, created=200)


def _retry(proposal_id: str, *, sync: bool):
    credit_settings = runtime.current().settings.credit
    outcome = retry(current_origin(), proposal_id, "sync" if sync else "async", credit_settings=credit_settings)
    if isinstance(outcome, RetryRefusal):
        return serialized(RetryResult, retry_refusal(proposal_id, outcome), 200)
    if not sync:
        return serialized(Acknowledgement, acknowledgement(outcome), 202)
    analysis = await_analysis(outcome, credit_settings.retry_wait_seconds)
    if analysis.outcome not in FINISHED_OUTCOMES:
        return serialized(Acknowledgement, acknowledgement(analysis), 202)
    return serialized(RetryResult, retry_body(finished_analysis(analysis, current_partner())), 200)


@blp.route(BASE + "/retry", methods=["POST"], endpoint="retry_credit_analysis")
@blp.arguments(AsyncQuery, location="query")
@blp.response(200, RetryResult, description="Retry result, or a message (dedup window / retry limit)")
@blp.alt_response(202, schema=Acknowledgement, description="?async=true, or still running after ~120 s")
@blp.errors(RETRY_ERRORS)
def retry_analysis(query, proposal_id):
    """Reprocess a failed analysis with the saved consent (synchronous unless ?async=true)."""
    return _retry(proposal_id, sync=not query["async_"])


@blp.route(BASE + "/retry/async", methods=["POST"], endpoint="retry_credit_analysis_async")
@blp.response(202, Acknowledgement)
@blp.alt_response(200, schema=RetryResult, description="A message (dedup window / retry limit)")
@blp.errors(RETRY_ERRORS)
def retry_analysis_async(proposal_id):
    """Reprocess a failed analysis and answer 202 at once."""
    return _retry(proposal_id, sync=False)

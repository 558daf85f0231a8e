"""Credit analysis: hybrid, explicit async and legacy ?async=true; polling; retry (3 variants)."""

from __future__ import annotations

import flask_smorest

from models import runtime
from models.domain.lifecycles import FINISHED_OUTCOMES, AnalysisOutcome
from models.services.credit.analysis import ConsentData, RetryRefusal, retry, start_analysis
from models.services.credit.analysis_reads import analysis_of, await_analysis, finished_analysis
from schemas.async_processing import Acknowledgement, AsyncQuery
from schemas.credit_analysis import AnalysisResult, CreditAnalysisRequest, RetryResult
from schemas.errors import ErrorSchema

from ..auth import current_origin
from ..errors import ApiError
from ..presenters.credit_analysis import acknowledgement, result_body, retry_body, status_url
from ..presenters.replies import reply

blp = flask_smorest.Blueprint("credit_analysis", __name__, description="Credit analysis")
BASE = "/proposals/<proposal_id>/credit-analysis"


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
        analysis = await_analysis(analysis.id, wait)
    if analysis.outcome not in FINISHED_OUTCOMES:
        return reply(acknowledgement(analysis), 202)
    return reply(
        result_body(finished_analysis(analysis)), created if analysis.outcome == AnalysisOutcome.APPROVED else 200
    )


@blp.route(BASE, methods=["POST"])
@blp.arguments(CreditAnalysisRequest)
@blp.arguments(AsyncQuery, location="query")
@blp.response(201, AnalysisResult, description="Approved within the hybrid wait (full result)")
@blp.alt_response(
    200, schema=AnalysisResult, description="Rejected (rejection_reason) or technical failure (error_code)"
)
@blp.alt_response(202, schema=Acknowledgement, description="Still running after the hybrid wait, or ?async=true")
@blp.alt_response(
    409, schema=ErrorSchema, description="In progress (no errorCode) or CREDIT_ANALYSIS_ALREADY_COMPLETED"
)
def analyse(body, query, proposal_id):
    """Hybrid analysis (waits up to ~28 s); ``?async=true`` is the legacy form of /async."""
    mode = "async" if query["async_"] else "hybrid"
    analysis = start_analysis(current_origin(), proposal_id, _consent(body), mode)
    return _answer(analysis, wait=None if query["async_"] else runtime.current().settings.credit.hybrid_wait_seconds)


@blp.route(BASE + "/async", methods=["POST"])
@blp.arguments(CreditAnalysisRequest)
@blp.response(202, Acknowledgement)
@blp.alt_response(
    409, schema=ErrorSchema, description="In progress (no errorCode) or CREDIT_ANALYSIS_ALREADY_COMPLETED"
)
def analyse_async(body, proposal_id):
    """Start the analysis and answer 202 at once; poll GET credit-analysis or use the webhook."""
    return _answer(start_analysis(current_origin(), proposal_id, _consent(body), "async"), wait=None)


@blp.route(BASE, methods=["GET"])
@blp.response(200, AnalysisResult, description="Approved, rejected or technical failure")
@blp.alt_response(202, schema=Acknowledgement, description="Still running")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal missing or analysis not started")
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
        return reply(
            {
                "message": outcome.message,
                "proposal_id": proposal_id,
                "status": outcome.current_status,
                "status_url": status_url(proposal_id),
            },
            200,
        )
    if not sync:
        return reply(acknowledgement(outcome), 202)
    analysis = await_analysis(outcome.id, credit_settings.retry_wait_seconds)
    if analysis.outcome not in FINISHED_OUTCOMES:
        return reply(acknowledgement(analysis), 202)
    return reply(retry_body(finished_analysis(analysis)), 200)


@blp.route(BASE + "/retry", methods=["POST"])
@blp.arguments(AsyncQuery, location="query")
@blp.response(200, RetryResult, description="Retry result, or a message (dedup window / retry limit)")
@blp.alt_response(202, schema=Acknowledgement, description="?async=true, or still running after ~120 s")
@blp.alt_response(
    400, schema=ErrorSchema, description="ANALYSIS_NOT_RETRYABLE, CONSENT_NOT_FOUND, RETRY_WINDOW_EXPIRED"
)
def retry_analysis(query, proposal_id):
    """Reprocess a failed analysis with the saved consent (synchronous unless ?async=true)."""
    return _retry(proposal_id, sync=not query["async_"])


@blp.route(BASE + "/retry/async", methods=["POST"])
@blp.response(202, Acknowledgement)
@blp.alt_response(200, schema=RetryResult, description="A message (dedup window / retry limit)")
@blp.alt_response(
    400, schema=ErrorSchema, description="ANALYSIS_NOT_RETRYABLE, CONSENT_NOT_FOUND, RETRY_WINDOW_EXPIRED"
)
def retry_analysis_async(proposal_id):
    """Reprocess a failed analysis and answer 202 at once."""
    return _retry(proposal_id, sync=False)

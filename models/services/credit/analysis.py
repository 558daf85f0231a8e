"""Starting a credit analysis (first, re-analysis, promotional) and the manual retry.

Error codes (besides the state machine's 409s), documented in README:
retry: ANALYSIS_NOT_RETRYABLE, CONSENT_NOT_FOUND, RETRY_WINDOW_EXPIRED (400).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from models.db.analysis import CreditAnalysis
from models.db.compiled import Compiled
from models.db.proposals import Consent, Proposal
from models.domain import calendar
from models.domain.analysis_rules import analysis_kind, promotional_eligible, retryable_failure
from models.domain.errors import ValidationFailed
from models.domain.lifecycles import AnalysisKind
from models.domain.status_machine import TRANSITIONS, Trigger
from models.services.partners.ownership import owned_proposal
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import CreditSettings


def latest_analysis(proposal_id: str) -> CreditAnalysis | None:
    """The newest analysis of the proposal (attempt breaks ties of a frozen clock)."""
    return _LATEST_ANALYSIS.first(str(proposal_id))


# Read by every analysis, offer and simulation route: rendered once (models/db/compiled.py).
_LATEST_ANALYSIS: Compiled[CreditAnalysis] = Compiled(
    lambda proposal_id: (
        CreditAnalysis.select()
        .where(CreditAnalysis.proposal == proposal_id)
        .order_by(CreditAnalysis.started_at.desc(), CreditAnalysis.attempt.desc())
        .limit(1)
    ),
    str,
)


# Every analysis start clears the selection: rendered once (models/db/compiled.py).
_FORGET_SELECTION: Compiled[Proposal] = Compiled(
    lambda proposal_id: Proposal.update(selected_offer_id=None, rejection_reason=None).where(
        Proposal.id == proposal_id
    ),
    str,
)


@dataclass(frozen=True)
class ConsentData:
    ip: str
    latitude: float
    longitude: float
    document_text: str
    channel: str


def start_analysis(origin: str, proposal_id: str, consent: ConsentData, mode: str) -> CreditAnalysis:
    """Save the consent, move the origin's proposal to CREDIT_ANALYSIS_IN_PROGRESS and enqueue the
    analysis actor."""
    proposal = owned_proposal(origin, proposal_id)
    previous = latest_analysis(proposal.id)
    promotional = previous is not None and promotional_eligible(
        proposal.status, previous.outcome, previous.approved_at, proposal_now(proposal)
    )
    kind = analysis_kind(promotional=promotional, has_previous=previous is not None)
    with unit_of_work():
        move(proposal, Trigger.START_ANALYSIS, promotional_eligible=promotional, details={"kind": kind})
        row = Consent.create(
            proposal=proposal.id,
            ip=consent.ip,
            latitude=consent.latitude,
            longitude=consent.longitude,
            document_text=consent.document_text,
            channel=consent.channel,
            captured_at=proposal_now(proposal),
        )
        # Offers of the previous analysis stop being selectable once a new one starts.
        _FORGET_SELECTION.execute(proposal.id)
        analysis = CreditAnalysis.create(
            proposal=proposal.id,
            cpf=proposal.cpf,
            origin=proposal.origin,
            kind=kind,
            mode=mode,
            promotional=promotional,
            consent_id=row.id,
            started_at=proposal_now(proposal),
            attempt=(previous.attempt + 1) if previous else 1,
        )
        enqueue(ActorName.RUN_CREDIT_ANALYSIS, analysis.id)
    return analysis


@dataclass(frozen=True)
class RetryRefusal:
    """A retry answered with a synchronous 200 and a message (dedup window or limit)."""

    message: str
    current_status: str  # the proposal's status, unchanged by a refused retry


def _retries(proposal_id: str):
    return CreditAnalysis.select().where(
        CreditAnalysis.proposal == proposal_id, CreditAnalysis.kind == AnalysisKind.RETRY
    )


def retry(
    origin: str, proposal_id: str, mode: str, *, credit_settings: CreditSettings
) -> CreditAnalysis | RetryRefusal:
    """Re-run a retryable failed analysis of the origin's proposal under its saved consent (spec
    retry rules: ``credit_settings`` holds the dedup window and the retry limit)."""
    proposal = owned_proposal(origin, proposal_id)
    settings = credit_settings
    recent = (
        _retries(proposal.id)
        .where(CreditAnalysis.started_at > proposal_now(proposal) - timedelta(seconds=settings.retry_dedup_seconds))
        .exists()
    )
    if recent:
        return RetryRefusal(
            f"A retry of this proposal was requested less than {settings.retry_dedup_seconds} "
            "seconds ago; poll GET /proposals/{id}/credit-analysis for its result",
            proposal.status,
        )
    failed = latest_analysis(proposal.id)
    if failed is None or not retryable_failure(proposal.status, failed.outcome, failed.retryable):
        raise ValidationFailed(
            "Only a retryable technical failure of the payroll system or the credit engine can be retried",
            error_code="ANALYSIS_NOT_RETRYABLE",
            details={
                "currentStatus": proposal.status,
                "requiredStatus": TRANSITIONS[Trigger.RETRY_ANALYSIS].required_status,
            },
        )
    if _retries(proposal.id).count() >= settings.retry_limit:
        return RetryRefusal(
            f"The retry limit ({settings.retry_limit}) of this proposal has been reached; "
            "start a new proposal or contact support",
            proposal.status,
        )
    consent = Consent.get_or_none(Consent.id == failed.consent_id) if failed.consent_id else None
    if consent is None:
        raise ValidationFailed(
            "No saved consent for this proposal; call POST credit-analysis with consent", error_code="CONSENT_NOT_FOUND"
        )
    if not calendar.retry_window_open(
        failed.finished_at, proposal_now(proposal), timedelta(hours=settings.retry_window_hours)
    ):
        raise ValidationFailed(
            f"The {settings.retry_window_hours}-hour retry window after the failure has expired",
            error_code="RETRY_WINDOW_EXPIRED",
            details={"failed_at": failed.finished_at.isoformat()},
        )
    with unit_of_work():
        move(proposal, Trigger.RETRY_ANALYSIS, details={"kind": AnalysisKind.RETRY})
        analysis = CreditAnalysis.create(
            proposal=proposal.id,
            cpf=proposal.cpf,
            origin=proposal.origin,
            kind=AnalysisKind.RETRY,
            mode=mode,
            consent_id=consent.id,
            started_at=proposal_now(proposal),
            attempt=failed.attempt + 1,
        )
        enqueue(ActorName.RUN_CREDIT_ANALYSIS, analysis.id)
    return analysis

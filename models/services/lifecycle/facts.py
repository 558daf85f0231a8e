"""What the deadline rules need to know about a proposal, read from its rows (never stored)."""

from __future__ import annotations

from datetime import timedelta

import peewee

from models.db.analysis import CreditAnalysis, Offer
from models.db.contracts import Contract
from models.db.proposals import Consent, Proposal, StatusChange
from models.domain.lifecycles import AnalysisKind, AnalysisOutcome
from models.domain.status_deadlines import FailedAnalysis, LifecycleLimits, ProposalFacts
from models.domain.statuses import Status
from models.services.credit.analysis import latest_analysis
from models.settings import ContractSettings, CreditSettings, LifecycleSettings


def limits(
    *,
    lifecycle_settings: LifecycleSettings,
    credit_settings: CreditSettings,
    contract_settings: ContractSettings,
) -> LifecycleLimits:
    """The configured limits of the deadline rules (config.toml, README "Lifecycle")."""
    return LifecycleLimits(
        idle_before_analysis=timedelta(days=lifecycle_settings.idle_before_analysis_days),
        analysis_stall=timedelta(minutes=lifecycle_settings.analysis_stall_minutes),
        retry_window=timedelta(hours=credit_settings.retry_window_hours),
        retry_limit=credit_settings.retry_limit,
        generation_watchdog=timedelta(seconds=contract_settings.watchdog_seconds),
    )


def status_since(proposal: Proposal):
    """When the proposal entered its current status: its latest status change, else (a row written
    without history) its last update."""
    change = StatusChange.get_or_none(
        (StatusChange.proposal == proposal.id) & (StatusChange.sequence == proposal.status_sequence)
    )
    return change.changed_at if change is not None else proposal.updated_at


def selectable_offers(proposal: Proposal) -> peewee.ModelSelect:
    """Offers the customer may still choose, time aside: not replaced, or the selected one."""
    selectable = Offer.superseded_at.is_null()
    if proposal.selected_offer_id:
        selectable = selectable | (Offer.id == proposal.selected_offer_id)
    return Offer.select().where(Offer.proposal == proposal.id, selectable)


def _latest(query):
    return query.order_by(query.model.created_at.desc()).first()


def _failure(proposal_id: str, analysis: CreditAnalysis | None) -> FailedAnalysis | None:
    if analysis is None or analysis.outcome != AnalysisOutcome.FAILED or analysis.finished_at is None:
        return None
    consent = analysis.consent_id is not None and Consent.select().where(Consent.id == analysis.consent_id).exists()
    retries = (
        CreditAnalysis.select()
        .where(CreditAnalysis.proposal == proposal_id, CreditAnalysis.kind == AnalysisKind.RETRY)
        .count()
    )
    return FailedAnalysis(analysis.finished_at, bool(analysis.retryable), consent, retries)


def read_facts(proposal: Proposal) -> ProposalFacts:
    """The facts of ``proposal`` as its rows stand (read them under its lock before acting)."""
    status = Status(proposal.status)
    analysis = latest_analysis(proposal.id)
    offers_until = selectable_offers(proposal).select(peewee.fn.MAX(Offer.expires_at)).scalar()
    contract = _latest(Contract.select().where(Contract.proposal == proposal.id))
    awaiting = analysis if analysis is not None and analysis.outcome == AnalysisOutcome.AWAITING_RETRY else None
    return ProposalFacts(
        status=status,
        status_since=status_since(proposal),
        offers_valid_until=Offer.expires_at.python_value(offers_until) if offers_until else None,
        failure=_failure(proposal.id, analysis),
        auto_retry_at=awaiting.retry_at if awaiting is not None else None,
        signature_expires_at=contract.signature_expires_at if contract is not None else None,
    )

"""The credit analysis itself (run by the actor): age policy, payroll margin, credit engine, offers.

``assess`` takes the decision (age, maintenance window, margin, engine) from the ports it is given
and touches no database; ``run`` claims the analysis, assesses it and writes the outcome with what
the payroll system answered (``margin_snapshot``: margin, employer, admission date and salary as
available; null when the system was not asked or did not answer). External calls happen outside
the transaction; the outcome is written only if the analysis is still IN_PROGRESS, so a
redelivered message changes nothing (actors are idempotent).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, timedelta

from models.db.analysis import CreditAnalysis
from models.db.compiled import CompiledUpdate
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.domain.analysis_rules import automatic_retry_allowed
from models.domain.clock import now
from models.domain.errors import BusinessRuleViolation
from models.domain.lifecycles import AnalysisOutcome
from models.domain.loan.offers import build_offers, credit_limits
from models.domain.loan.pricing import AnalysisResult
from models.domain.policies import age_allowed, payroll_window_end
from models.domain.status_machine import Trigger
from models.external.credit_engine import CreditEngineError, CreditEnginePort
from models.external.credit_engine.port import AGE_CRITERIA, NO_AVAILABLE_MARGIN, EngineDecision
from models.external.payroll import MarginResult, PayrollPort, PayrollUnavailable
from models.services.credit.offers import store_offers
from models.services.credit.products import pricing
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_clock import outbox_instant, proposal_now
from models.services.platform.proposal_status import move, wake_key
from models.services.platform.unit_of_work import enqueue, notify, unit_of_work
from models.settings import CreditSettings, PayrollWindowSettings, PricingSettings

log = logging.getLogger(__name__)

PAYROLL_UNAVAILABLE_CODE = "CRA-DTP-003"
ENGINE_ERROR_CODE = "CRA-ENG-001"


def _query_margin(
    cpf: str, attempt: int, *, payroll: PayrollPort, payroll_window_settings: PayrollWindowSettings
) -> MarginResult:
    """The payroll margin; inside an enforced maintenance window the system is not called and the
    failure schedules the automatic retry for the window's end."""
    window_end = payroll_window_end(now(), enforced=payroll_window_settings.enforced)
    if window_end is not None:
        raise PayrollUnavailable(
            "payroll system in its monthly maintenance window", auto_retry=True, retry_at=window_end
        )
    return payroll.query_margin(cpf, attempt=attempt)


@dataclass(frozen=True)
class Rejected:
    """REJECTED with ``reason``; ``margin`` is the payroll system's answer when it was asked."""

    reason: str
    margin: MarginResult | None = None


@dataclass(frozen=True)
class PayrollFailed:
    """The payroll system could not answer (automatic retry when ``failure.auto_retry``)."""

    failure: PayrollUnavailable


@dataclass(frozen=True)
class EngineFailed:
    """The credit engine failed technically (CRA-ENG-001, retryable), after the payroll system
    answered ``margin``."""

    message: str
    margin: MarginResult


@dataclass(frozen=True)
class Approved:
    """Approved by the engine on the payroll system's answer ``margin``; offers are built from its
    available margin."""

    margin: MarginResult
    decision: EngineDecision


Assessment = Rejected | PayrollFailed | EngineFailed | Approved


def assess(
    cpf: str,
    birth_date: date,
    *,
    attempt: int,
    promotional: bool,
    payroll: PayrollPort,
    credit_engine: CreditEnginePort,
    credit_settings: CreditSettings,
    payroll_window_settings: PayrollWindowSettings,
) -> Assessment:
    """The decision on one attempt, in the policy's order: age, payroll margin (never asked inside
    an enforced maintenance window), then the credit engine."""
    if not age_allowed(birth_date, now().date(), credit_settings.min_age, credit_settings.max_age):
        return Rejected(AGE_CRITERIA)
    try:
        margin = _query_margin(cpf, attempt, payroll=payroll, payroll_window_settings=payroll_window_settings)
    except PayrollUnavailable as failure:
        return PayrollFailed(failure)
    if margin.available_margin <= 0:
        return Rejected(NO_AVAILABLE_MARGIN, margin)
    try:
        decision = credit_engine.evaluate(cpf, margin.available_margin, promotional=promotional)
    except CreditEngineError as error:
        return EngineFailed(str(error), margin)
    if not decision.approved:
        return Rejected(decision.rejection_reason or "CREDIT_POLICY", margin)
    return Approved(margin, decision)


def _claim(analysis_id: str) -> tuple[CreditAnalysis, Proposal] | None:
    analysis = CreditAnalysis.get_or_none(CreditAnalysis.id == analysis_id)
    if analysis is None or analysis.outcome != AnalysisOutcome.IN_PROGRESS:
        return None
    return analysis, Proposal.get_by_id(analysis.proposal_id)


def _finish(analysis: CreditAnalysis, proposal: Proposal, outcome: str, **fields) -> bool:
    """Write the outcome if nobody else did (inside the caller's unit of work), finished at the
    proposal's now unless given."""
    fields.setdefault("finished_at", proposal_now(proposal))
    updated = _FINISH.execute({"outcome": outcome, **fields}, analysis.id)
    if updated:  # the hybrid wait (analysis_reads.await_analysis), whether or not the status moves
        notify(wake_key(proposal.id))
    return updated == 1


# Each outcome writes its own columns, so its UPDATE has its own SQL, rendered once
# (models/db/compiled.py): the four outcomes' sets are built here, any other on its first use.
_FINISH = CompiledUpdate(
    CreditAnalysis,
    lambda analysis_id: (CreditAnalysis.id == analysis_id) & (CreditAnalysis.outcome == AnalysisOutcome.IN_PROGRESS),
    str,
    shapes=tuple(
        ("outcome", *shape)
        for shape in (
            (  # _approve
                "available_margin",
                "margin_snapshot",
                "max_loan_amount",
                "max_installments",
                "max_monthly_payment",
                "min_monthly_payment",
                "monthly_rate",
                "pod_limit_max",
                "promotional_pod_limit_max",
                "engine_result",
                "approved_at",
                "finished_at",
            ),
            ("rejection_reason", "available_margin", "margin_snapshot", "finished_at"),  # _reject
            ("error_code", "retryable", "margin_snapshot", "engine_result", "finished_at"),  # _fail
            (  # _payroll_failed
                "error_code",
                "retryable",
                "retry_at",
                "first_payroll_failure_at",
                "engine_result",
                "finished_at",
            ),
        )
    ),
)


def run(
    analysis_id: str,
    *,
    payroll: PayrollPort,
    credit_engine: CreditEnginePort,
    credit_settings: CreditSettings,
    payroll_window_settings: PayrollWindowSettings,
) -> None:
    """Run one analysis to its outcome: APPROVED, REJECTED, FAILED or AWAITING_RETRY."""
    claimed = _claim(analysis_id)
    if claimed is None:
        return
    analysis, proposal = claimed
    verdict = assess(
        proposal.cpf,
        proposal.birth_date,
        attempt=analysis.attempt,
        promotional=analysis.promotional,
        payroll=payroll,
        credit_engine=credit_engine,
        credit_settings=credit_settings,
        payroll_window_settings=payroll_window_settings,
    )
    if isinstance(verdict, Rejected):
        return _reject(analysis, proposal, verdict.reason, margin=verdict.margin)
    if isinstance(verdict, PayrollFailed):
        return _payroll_failed(analysis, proposal, verdict.failure, credit_settings)
    if isinstance(verdict, EngineFailed):
        return _fail(analysis, proposal, ENGINE_ERROR_CODE, verdict.message, margin=verdict.margin)
    _approve(analysis, proposal, verdict.margin, verdict.decision, credit_settings.pricing)


def analysis_result(analysis: CreditAnalysis, partner: Partner, margin=None, decision: EngineDecision | None = None):
    """The domain AnalysisResult of an approved analysis (used again by simulations)."""
    return AnalysisResult(
        available_margin=margin if margin is not None else analysis.available_margin,
        max_installments=decision.max_installments if decision else analysis.max_installments,
        monthly_rate=decision.monthly_rate if decision else analysis.monthly_rate,
        pod_limit_max=decision.pod_limit_max if decision else analysis.pod_limit_max,
        promotional_pod_limit_max=decision.promotional_pod_limit_max
        if decision
        else analysis.promotional_pod_limit_max,
        promotional=analysis.promotional,
        insurance_enabled=partner.insurance_enabled,
    )


def _approve(
    analysis, proposal, margin: MarginResult, decision: EngineDecision, pricing_settings: PricingSettings
) -> None:
    partner = Partner.get(Partner.code == proposal.origin)
    result = analysis_result(analysis, partner, margin.available_margin, decision)
    stamp = proposal_now(proposal)
    terms = pricing(pricing_settings)
    try:
        offers = build_offers(result, terms, proposal.id, stamp)
    except BusinessRuleViolation:  # the margin cannot carry even the smallest loan
        return _reject(analysis, proposal, NO_AVAILABLE_MARGIN, margin=margin)
    limits = credit_limits(result, terms, stamp)
    with unit_of_work():
        if not _finish(
            analysis,
            proposal,
            AnalysisOutcome.APPROVED,
            available_margin=margin.available_margin,
            margin_snapshot=margin.snapshot(),
            max_loan_amount=limits["maxLoanAmount"],
            max_installments=limits["maxInstallments"],
            max_monthly_payment=limits["maxMonthlyPayment"],
            min_monthly_payment=limits["minMonthlyPayment"],
            monthly_rate=result.monthly_rate,
            pod_limit_max=decision.pod_limit_max,
            promotional_pod_limit_max=decision.promotional_pod_limit_max,
            engine_result={"score": decision.score, "max_installments": decision.max_installments},
            approved_at=stamp,
            finished_at=stamp,
        ):
            return
        store_offers(proposal, offers, source="analysis", analysis=analysis)
        move(proposal, Trigger.CREDIT_CHECK_DONE, source="actor")
        move(proposal, Trigger.OFFERS_STORED, source="actor")


def _reject(analysis, proposal, reason: str, *, margin: MarginResult | None = None) -> None:
    with unit_of_work():
        if not _finish(
            analysis,
            proposal,
            AnalysisOutcome.REJECTED,
            rejection_reason=reason,
            available_margin=margin.available_margin if margin else None,
            margin_snapshot=margin.snapshot() if margin else None,
        ):
            return
        Proposal.update(rejection_reason=reason).where(Proposal.id == proposal.id).execute()
        move(proposal, Trigger.ANALYSIS_REJECTED, source="actor", details={"rejection_reason": reason})


def _fail(
    analysis, proposal, code: str, reason: str, *, retryable: bool = True, margin: MarginResult | None = None
) -> None:
    log.warning("credit analysis %s failed: %s", analysis.id, code)
    with unit_of_work():
        if not _finish(
            analysis,
            proposal,
            AnalysisOutcome.FAILED,
            error_code=code,
            retryable=retryable,
            margin_snapshot=margin.snapshot() if margin else None,
            engine_result={"failure": reason[:300]},
        ):
            return
        move(proposal, Trigger.ANALYSIS_FAILED, source="actor", details={"error_code": code})


def _payroll_failed(analysis, proposal, failure: PayrollUnavailable, credit_settings: CreditSettings) -> None:
    if not failure.auto_retry:
        return _fail(analysis, proposal, PAYROLL_UNAVAILABLE_CODE, str(failure))
    at = proposal_now(proposal)
    retry_at = failure.retry_at or at + timedelta(seconds=credit_settings.payroll_auto_retry_seconds)
    first_failed_at = analysis.first_payroll_failure_at or at
    if not automatic_retry_allowed(
        analysis.auto_retries,
        first_failed_at,
        retry_at,
        limit=credit_settings.payroll_auto_retry_limit,
        window=timedelta(hours=credit_settings.retry_window_hours),
    ):
        # Bounded: the failure becomes the partner's to retry (CREDIT_ANALYSIS_FAILED, retryable).
        log.warning("credit analysis %s: automatic payroll retries exhausted", analysis.id)
        return _fail(analysis, proposal, PAYROLL_UNAVAILABLE_CODE, str(failure))
    with unit_of_work():
        if not _finish(
            analysis,
            proposal,
            AnalysisOutcome.AWAITING_RETRY,
            error_code=PAYROLL_UNAVAILABLE_CODE,
            retryable=True,
            retry_at=retry_at,
            first_payroll_failure_at=first_failed_at,
            engine_result={"failure": str(failure)[:300]},
        ):
            return
        move(proposal, Trigger.PAYROLL_RETRY_SCHEDULED, source="actor", details={"retry_at": retry_at.isoformat()})
        enqueue(
            ActorName.AUTO_RETRY_CREDIT_ANALYSIS,
            analysis.id,
            deliver_at=outbox_instant(proposal, retry_at),
            dedup_key=f"payroll-auto-retry:{analysis.id}:{analysis.attempt}",
        )


def auto_retry(analysis_id: str) -> None:
    """The scheduled automatic retry: the same analysis runs again with the next attempt number."""
    analysis = CreditAnalysis.get_or_none(CreditAnalysis.id == analysis_id)
    if analysis is None or analysis.outcome != AnalysisOutcome.AWAITING_RETRY:
        return
    proposal = Proposal.get_by_id(analysis.proposal_id)
    with unit_of_work():
        updated = (
            CreditAnalysis.update(
                outcome=AnalysisOutcome.IN_PROGRESS,
                attempt=analysis.attempt + 1,
                auto_retries=analysis.auto_retries + 1,
                finished_at=None,
                retry_at=None,
                error_code=None,
            )
            .where(CreditAnalysis.id == analysis.id, CreditAnalysis.outcome == AnalysisOutcome.AWAITING_RETRY)
            .execute()
        )
        if updated != 1:
            return
        move(proposal, Trigger.AUTO_RETRY, source="scheduler")
        enqueue(ActorName.RUN_CREDIT_ANALYSIS, analysis.id)


INTERNAL_ERROR_CODE = "CRA-INT-001"
# What the database (PostgreSQL or SQLite, through peewee or the pool) raises when it cannot be
# reached or is out of connections: the exception class names the give-up hook receives.
DATABASE_AWAY_ERRORS = frozenset({"OperationalError", "InterfaceError", "MaxConnectionsExceeded"})


def give_up(analysis_id: str, error_type: str) -> None:
    """The analysis actor failed on every try: close the analysis as a technical failure, unless
    the last error was the database being away (``error_type``, the exception's class name): the
    analysis is not at fault, and the lifecycle sweep runs it again (``analysis_redrive``)."""
    if error_type in DATABASE_AWAY_ERRORS:
        log.warning("credit analysis %s: its run gave up on %s; left for the re-drive", analysis_id, error_type)
        return
    claimed = _claim(analysis_id)
    if claimed is not None:
        _fail(claimed[0], claimed[1], INTERNAL_ERROR_CODE, f"internal error ({error_type})", retryable=False)

"""The credit analysis itself (run by the actor): age policy, payroll margin, credit engine, offers.

External calls happen outside the transaction; the outcome is written only if the analysis is
still IN_PROGRESS, so a redelivered message changes nothing (actors are idempotent).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from models.db.analysis import CreditAnalysis
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.errors import BusinessRuleViolation
from models.domain.lifecycles import AnalysisOutcome
from models.domain.loan.offers import build_offers, credit_limits
from models.domain.loan.pricing import AnalysisResult
from models.domain.policies import age_allowed, payroll_window_end
from models.domain.status_machine import Trigger
from models.external.credit_engine import CreditEngineError, get_credit_engine
from models.external.credit_engine.port import AGE_CRITERIA, NO_AVAILABLE_MARGIN, EngineDecision
from models.external.payroll import MarginResult, PayrollUnavailable, get_payroll
from models.services.credit.offers import store_offers
from models.services.credit.products import pricing
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import current

log = logging.getLogger(__name__)

PAYROLL_UNAVAILABLE_CODE = "CRA-DTP-003"
ENGINE_ERROR_CODE = "CRA-ENG-001"


def _age_ok(proposal: Proposal) -> bool:
    policy = current().credit
    return age_allowed(proposal.birth_date, now().date(), policy.min_age, policy.max_age)


def _query_margin(cpf: str, attempt: int) -> MarginResult:
    """The payroll margin; inside an enforced maintenance window the system is not called and the
    failure schedules the automatic retry for the window's end."""
    window_end = payroll_window_end(now(), enforced=current().payroll_window.enforced)
    if window_end is not None:
        raise PayrollUnavailable(
            "payroll system in its monthly maintenance window", auto_retry=True, retry_at=window_end
        )
    return get_payroll().query_margin(cpf, attempt=attempt)


def _claim(analysis_id: str) -> tuple[CreditAnalysis, Proposal] | None:
    analysis = CreditAnalysis.get_or_none(CreditAnalysis.id == analysis_id)
    if analysis is None or analysis.outcome != AnalysisOutcome.IN_PROGRESS:
        return None
    return analysis, Proposal.get_by_id(analysis.proposal_id)


def _finish(analysis: CreditAnalysis, outcome: str, **fields) -> bool:
    """Write the outcome if nobody else did (inside the caller's unit of work)."""
    fields.setdefault("finished_at", now())
    updated = (
        CreditAnalysis.update(outcome=outcome, **fields)
        .where(CreditAnalysis.id == analysis.id, CreditAnalysis.outcome == AnalysisOutcome.IN_PROGRESS)
        .execute()
    )
    return updated == 1


def run(analysis_id: str) -> None:
    """Run one analysis to its outcome: APPROVED, REJECTED, FAILED or AWAITING_RETRY."""
    claimed = _claim(analysis_id)
    if claimed is None:
        return
    analysis, proposal = claimed
    if not _age_ok(proposal):
        return _reject(analysis, proposal, AGE_CRITERIA)
    try:
        margin = _query_margin(proposal.cpf, analysis.attempt)
    except PayrollUnavailable as failure:
        return _payroll_failed(analysis, proposal, failure)
    if margin.available_margin <= 0:
        return _reject(analysis, proposal, NO_AVAILABLE_MARGIN, available_margin=margin.available_margin)
    try:
        decision = get_credit_engine().evaluate(proposal.cpf, margin.available_margin, promotional=analysis.promotional)
    except CreditEngineError as error:
        return _fail(analysis, proposal, ENGINE_ERROR_CODE, str(error))
    if not decision.approved:
        return _reject(
            analysis, proposal, decision.rejection_reason or "CREDIT_POLICY", available_margin=margin.available_margin
        )
    _approve(analysis, proposal, margin.available_margin, decision)


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


def _approve(analysis, proposal, margin, decision: EngineDecision) -> None:
    partner = Partner.get(Partner.code == proposal.origin)
    result = analysis_result(analysis, partner, margin, decision)
    stamp = now()
    try:
        offers = build_offers(result, pricing(), proposal.id, stamp)
    except BusinessRuleViolation:  # the margin cannot carry even the smallest loan
        return _reject(analysis, proposal, NO_AVAILABLE_MARGIN, available_margin=margin)
    limits = credit_limits(result, pricing(), stamp)
    with unit_of_work():
        if not _finish(
            analysis,
            AnalysisOutcome.APPROVED,
            available_margin=margin,
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


def _reject(analysis, proposal, reason: str, available_margin=None) -> None:
    with unit_of_work():
        if not _finish(analysis, AnalysisOutcome.REJECTED, rejection_reason=reason, available_margin=available_margin):
            return
        Proposal.update(rejection_reason=reason).where(Proposal.id == proposal.id).execute()
        move(proposal, Trigger.ANALYSIS_REJECTED, source="actor", details={"rejection_reason": reason})


def _fail(analysis, proposal, code: str, reason: str, *, retryable: bool = True) -> None:
    log.warning("credit analysis %s failed: %s", analysis.id, code)
    with unit_of_work():
        if not _finish(
            analysis,
            AnalysisOutcome.FAILED,
            error_code=code,
            retryable=retryable,
            engine_result={"failure": reason[:300]},
        ):
            return
        move(proposal, Trigger.ANALYSIS_FAILED, source="actor", details={"error_code": code})


def _payroll_failed(analysis, proposal, failure: PayrollUnavailable) -> None:
    if not failure.auto_retry:
        return _fail(analysis, proposal, PAYROLL_UNAVAILABLE_CODE, str(failure))
    retry_at = failure.retry_at or now() + timedelta(seconds=current().credit.payroll_auto_retry_seconds)
    with unit_of_work():
        if not _finish(
            analysis,
            AnalysisOutcome.AWAITING_RETRY,
            error_code=PAYROLL_UNAVAILABLE_CODE,
            retryable=True,
            retry_at=retry_at,
            engine_result={"failure": str(failure)[:300]},
        ):
            return
        move(proposal, Trigger.PAYROLL_RETRY_SCHEDULED, source="actor", details={"retry_at": retry_at.isoformat()})
        enqueue(
            ActorName.AUTO_RETRY_CREDIT_ANALYSIS,
            analysis.id,
            deliver_at=retry_at,
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


def give_up(analysis_id: str, error_type: str) -> None:
    """The analysis actor failed on every try: close the analysis as a technical failure."""
    claimed = _claim(analysis_id)
    if claimed is not None:
        _fail(claimed[0], claimed[1], INTERNAL_ERROR_CODE, f"internal error ({error_type})", retryable=False)

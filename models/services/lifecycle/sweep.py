"""The lifecycle sweep: move every proposal whose deadline has come through its exit.

The rules are the domain's (``models/domain/status_deadlines.py``); this module finds the
candidates, then settles each one in its own transaction: the proposal is locked, its facts read
again and the rule asked again before anything moves, so a proposal that moved meanwhile (a
retry, a signature, a new simulation) is left alone and running the sweep twice changes nothing.
Status changes go through the status writer, so the partner gets the status webhook.

``settle_customer`` is the same step for every proposal of one CPF, run by POST /proposals/start
under the CPF's lock before it decides: a dead proposal is expired there and then, never returned
nor blocking, whether or not the sweep has passed yet.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import peewee

from models.db.analysis import CreditAnalysis, Offer
from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.proposals import Proposal, StatusChange
from models.domain.clock import now
from models.domain.status_deadlines import (
    DEADLINE_STATUSES,
    EARLY_FUNNEL,
    OFFER_STAGE,
    SIGNATURE_STAGE,
    Deadline,
    Exit,
    LifecycleLimits,
    due_exit,
)
from models.domain.status_machine import Trigger
from models.domain.statuses import Status
from models.services.contract import generation, signature
from models.services.credit import analysis_runner
from models.services.credit.analysis import latest_analysis
from models.services.lifecycle.facts import limits as lifecycle_limits
from models.services.lifecycle.facts import read_facts
from models.services.platform import proposal_status as status
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal_or_none
from models.services.platform.periodic import next_slot
from models.services.platform.proposal_clock import furthest_offset, proposal_now
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import ContractSettings, CreditSettings, LifecycleSettings

log = logging.getLogger(__name__)
S = Status


@dataclass
class SweepReport:
    """What one sweep did: proposals moved per exit, and those whose step failed (logged)."""

    moved: dict[str, int] = field(default_factory=dict)
    failed: int = 0

    def count(self, deadline: Deadline) -> None:
        self.moved[deadline.exit.value] = self.moved.get(deadline.exit.value, 0) + 1


def _apply(proposal: Proposal, due: Deadline) -> None:
    """Take ``due``'s exit (inside unit_of_work, the proposal locked and the rule just re-checked)."""
    details = {"reason": due.reason.value, "deadline": due.at.isoformat()}
    if due.exit is Exit.EXPIRE:
        status.move(proposal, Trigger.PROPOSAL_EXPIRED, source="scheduler", details=details)
        return
    if due.exit in (Exit.FAIL_STALLED_ANALYSIS, Exit.RUN_AUTO_RETRY):
        analysis = latest_analysis(proposal.id)
        if analysis is None:
            return
        if due.exit is Exit.FAIL_STALLED_ANALYSIS:
            analysis_runner.give_up(analysis.id, due.reason.value)
        else:
            analysis_runner.auto_retry(analysis.id)
        return
    contract = generation.latest_contract(proposal.id)
    if contract is None:
        return
    if due.exit is Exit.FAIL_CONTRACT_GENERATION:
        generation.watchdog(contract.id)
    else:
        signature.expire(contract.id)


def settle(proposal_id: str, limits: LifecycleLimits) -> Deadline | None:
    """Apply the proposal's exit if its deadline has come (one transaction, under its lock); the
    deadline applied, or None."""
    with unit_of_work():
        proposal = locked_proposal_or_none(proposal_id)
        if proposal is None:
            return None
        due = due_exit(read_facts(proposal), limits, proposal_now(proposal))
        if due is None:
            return None
        log.info("lifecycle: proposal %s %s -> %s (%s)", proposal.id, proposal.status, due.exit, due.reason)
        _apply(proposal, due)
    return due


# An exit may lead to a status whose own deadline has already come (a stalled analysis fails as
# not retryable, which is dead at once): settling one proposal repeats at most this many steps.
_STEPS_PER_PROPOSAL = 3


def settle_fully(proposal_id: str, limits: LifecycleLimits) -> list[Deadline]:
    """Settle the proposal to the end of its due exits; returns the deadlines applied, in order."""
    applied = []
    for _ in range(_STEPS_PER_PROPOSAL):
        due = settle(proposal_id, limits)
        if due is None:
            break
        applied.append(due)
    return applied


def settle_customer(cpf: str, limits: LifecycleLimits) -> list[Deadline]:
    """Settle every proposal of ``cpf`` whose deadline has come, to the end of its due exits
    (inside the caller's unit_of_work, the CPF locked); returns the deadlines applied."""
    applied = []
    for (proposal_id,) in _WITH_DEADLINE_OF_CUSTOMER.all(cpf):
        applied.extend(settle_fully(proposal_id, limits))
    return applied


# Every start runs it: rendered once (models/db/compiled.py).
_WITH_DEADLINE_OF_CUSTOMER: Compiled[tuple] = Compiled(
    lambda cpf: Proposal.select(Proposal.id).where(Proposal.cpf == cpf, _in(DEADLINE_STATUSES)).tuples(), str
)


def _in(statuses) -> peewee.Expression:
    return Proposal.status.in_([s.value for s in statuses])


def _entered_before(statuses, cutoff: datetime) -> peewee.ModelSelect:
    """Proposals in ``statuses`` that entered them at or before ``cutoff`` (latest status change;
    its last update for a row without history)."""
    change = StatusChange.alias()
    joined = (change.proposal == Proposal.id) & (change.sequence == Proposal.status_sequence)
    return (
        Proposal.select(Proposal.id)
        .join(change, peewee.JOIN.LEFT_OUTER, on=joined)
        .where(
            _in(statuses),
            (change.changed_at <= cutoff) | (change.id.is_null() & (Proposal.updated_at <= cutoff)),
        )
    )


def _without_live_offer(at: datetime) -> peewee.ModelSelect:
    """Offer-stage proposals none of whose selectable offers is still within its validity."""
    live = Offer.select(Offer.id).where(
        Offer.proposal == Proposal.id,
        Offer.superseded_at.is_null() | (Offer.id == Proposal.selected_offer_id),
        Offer.expires_at > at,
    )
    return Proposal.select(Proposal.id).where(_in(OFFER_STAGE), ~peewee.fn.EXISTS(live))


def _signature_lapsed(at: datetime) -> peewee.ModelSelect:
    return (
        Proposal.select(Proposal.id)
        .join(Contract, on=(Contract.proposal == Proposal.id))
        .where(_in(SIGNATURE_STAGE), Contract.signature_expires_at <= at)
    )


def _candidates(limits: LifecycleLimits, at: datetime) -> list[peewee.ModelSelect]:
    """Queries that find (a superset of) the proposals due at ``at``, one per family of exits.
    The rule decides for each one; these only keep the sweep from reading healthy proposals."""
    return [
        _entered_before(EARLY_FUNNEL, at - limits.idle_before_analysis),
        _entered_before({S.CREDIT_ANALYSIS_IN_PROGRESS}, at - limits.analysis_stall),
        Proposal.select(Proposal.id)
        .join(CreditAnalysis, on=(CreditAnalysis.proposal == Proposal.id))
        .where(
            _in({S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY}),
            CreditAnalysis.retry_at.is_null() | (CreditAnalysis.retry_at <= at - limits.analysis_stall),
        ),
        Proposal.select(Proposal.id).where(_in({S.CREDIT_ANALYSIS_FAILED})),
        _without_live_offer(at),
        _entered_before({S.CONTRACT_GENERATION_IN_PROGRESS}, at - limits.generation_watchdog),
        _signature_lapsed(at),
    ]


def sweep(
    *,
    lifecycle_settings: LifecycleSettings,
    credit_settings: CreditSettings,
    contract_settings: ContractSettings,
    sandbox_routes: bool = False,
) -> SweepReport:
    """One pass: settle every proposal whose deadline has come, at most ``sweep_batch_size`` per
    family of exits (the rest wait for the next pass). A proposal whose step fails is logged and
    counted; the others go on. The limits come from the three sections (``facts.limits``);
    ``sandbox_routes`` (the sandbox test clock is on) makes it look for advanced proposals too."""
    limits = lifecycle_limits(
        lifecycle_settings=lifecycle_settings, credit_settings=credit_settings, contract_settings=contract_settings
    )
    report = SweepReport()
    seen: set[str] = set()
    queries = _candidates(limits, now())
    furthest = furthest_offset() if sandbox_routes else 0
    if furthest:
        # Sandbox proposals whose test clock runs ahead: looking as far ahead as the furthest one
        # finds those whose own time has reached a deadline (settle judges each at its own now).
        # Only advanced proposals are read this way, so the real-time pass is never crowded out.
        ahead = now() + timedelta(seconds=furthest)
        queries += [query.where(Proposal.clock_offset_seconds > 0) for query in _candidates(limits, ahead)]
    for query in queries:
        ids = [
            row[0] for row in query.order_by(Proposal.updated_at).limit(lifecycle_settings.sweep_batch_size).tuples()
        ]
        for proposal_id in ids:
            if proposal_id in seen:
                continue
            seen.add(proposal_id)
            try:
                due = settle(proposal_id, limits)
            except Exception:
                report.failed += 1
                log.exception("lifecycle: proposal %s could not be settled; the next sweep tries again", proposal_id)
                continue
            if due is not None:
                report.count(due)
    return report


def schedule_next_sweep(after: datetime | None = None, *, lifecycle_settings: LifecycleSettings) -> datetime | None:
    """Schedule the sweep of the next slot (``sweep_interval_seconds`` apart) as an outbox row, one
    per slot whoever schedules it; returns its time, or None when the schedule is off."""
    if lifecycle_settings.sweep_interval_seconds <= 0:
        return None
    slot, at = next_slot(lifecycle_settings.sweep_interval_seconds, after)
    with unit_of_work():
        enqueue(ActorName.SWEEP_LIFECYCLE, deliver_at=at, dedup_key=f"lifecycle-sweep:{slot}")
    return at

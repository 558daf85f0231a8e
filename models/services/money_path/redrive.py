"""The re-drive sweep: the step of every proposal whose next attempt has come is sent again.

Each proposal is handled in its own transaction under its lock: the step is derived again from
the facts (a proposal that moved on or closed meanwhile gets its record updated or finished, and
nothing is sent), the re-drive is counted, the next one scheduled by the backoff policy
(``models/domain/money_path.py``) and the step's message written to the outbox in the same
commit. Every step's actor is idempotent, so a re-drive that crosses a late original is harmless.
``reconcile`` is the same re-drive, forced now (ops CLI).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from models.db.money_path import MoneyPathStep
from models.domain.clock import now
from models.domain.money_path import RedrivePolicy, Step, alarming, next_attempt_at, step_for
from models.services.contract.generation import latest_contract
from models.services.money_path.tracking import SIGNATURE_FINISHED, facts_of, finish_record, finished_signature_result
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal_or_none
from models.services.platform.periodic import next_slot
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import MoneyPathSettings

log = logging.getLogger(__name__)


def policy(money_path_settings: MoneyPathSettings) -> RedrivePolicy:
    return RedrivePolicy(
        first_seconds=money_path_settings.redrive_first_seconds,
        max_seconds=money_path_settings.redrive_max_seconds,
        alert_after_attempts=money_path_settings.alert_after_attempts,
    )


def next_attempt(row: MoneyPathStep, rule: RedrivePolicy) -> datetime:
    """When the row's next re-drive is due (before the first: ``first_seconds`` after ``due_at``)."""
    return row.next_attempt_at or next_attempt_at(row.due_at, 0, rule)


@dataclass
class RedriveReport:
    redriven: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    failed: int = 0


def _send(step: Step, contract) -> bool:
    """Write the step's message (inside unit_of_work); False when there is nothing to send."""
    if step is Step.SIGNATURE_RESULT:
        row = finished_signature_result(contract)
        if row is None:
            return False
        process_id, _event, results = row.args
        # with the instant it first reached us: the deadline is judged by it, not by this re-drive
        enqueue(ActorName.HANDLE_SIGNATURE_RESULT, process_id, SIGNATURE_FINISHED, results, **row.kwargs)
        return True
    if step is Step.GENERATE:
        enqueue(ActorName.GENERATE_CONTRACT, contract.id)
    elif step is Step.ROUTE:
        enqueue(ActorName.PROCESS_SIGNED_CONTRACT, contract.id)
    elif step is Step.FRAUD:
        enqueue(ActorName.RUN_FRAUD_ANALYSIS, contract.id)
    elif step is Step.ENDORSE:
        enqueue(ActorName.ENDORSE_CONTRACT, contract.id)
    else:
        enqueue(ActorName.DISBURSE, contract.id)
    return True


def redrive(proposal_id: str, *, money_path_settings: MoneyPathSettings, forced: bool = False) -> Step | None:
    """Send the proposal's step again if its next attempt has come (now when ``forced``); returns
    the step sent, or None (nothing due, nothing left to do, or no such proposal)."""
    rule = policy(money_path_settings)
    with unit_of_work():
        proposal = locked_proposal_or_none(proposal_id)
        row = MoneyPathStep.get_or_none(MoneyPathStep.proposal_id == proposal_id)
        contract = latest_contract(proposal_id) if proposal is not None else None
        at = now()
        step = step_for(facts_of(proposal, contract)) if proposal is not None and contract is not None else None
        if step is None or contract is None:
            finish_record(row, at)
            return None
        if row is None or row.finished_at is not None or row.step != step or row.contract_id != contract.id:
            # The facts moved on without the record (or it never had one): start the step's record now
            # and re-drive at once, since no message is known to carry it.
            attempts = 1
        else:
            if not forced and at < next_attempt(row, rule):
                return None  # another sweep got here first
            attempts = row.attempts + 1
        if not _send(step, contract):
            return None
        fields = {
            "contract_id": contract.id,
            "step": step.value,
            "attempts": attempts,
            "next_attempt_at": next_attempt_at(at, attempts, rule),
            "last_redrive_at": at,
            "finished_at": None,
            "updated_at": at,
        }
        if row is None:
            MoneyPathStep.create(proposal_id=proposal_id, step_since=at, due_at=at, **fields)
        elif row.step != step or row.finished_at is not None:
            MoneyPathStep.update(step_since=at, due_at=at, last_error=None, **fields).where(
                MoneyPathStep.proposal_id == proposal_id
            ).execute()
        else:
            MoneyPathStep.update(**fields).where(MoneyPathStep.proposal_id == proposal_id).execute()
    level = logging.ERROR if alarming(attempts, rule) else logging.WARNING
    prefix = "ALERT money path stuck: " if level == logging.ERROR else "money path: "
    log.log(
        level,
        "%sproposal %s step %s re-driven (attempt %d, last error: %s)",
        prefix,
        proposal_id,
        step.value,
        attempts,
        row.last_error if row is not None else None,
    )
    return step


def due_proposals(money_path_settings: MoneyPathSettings, at: datetime | None = None) -> list[str]:
    """Open records whose next re-drive has come, oldest first, at most ``sweep_batch_size``."""
    at = at or now()
    first = timedelta(seconds=money_path_settings.redrive_first_seconds)
    query = (
        MoneyPathStep.select(MoneyPathStep.proposal_id)
        .where(
            MoneyPathStep.finished_at.is_null(),
            (MoneyPathStep.next_attempt_at.is_null() & (MoneyPathStep.due_at <= at - first))
            | (MoneyPathStep.next_attempt_at <= at),
        )
        .order_by(MoneyPathStep.due_at)
        .limit(money_path_settings.sweep_batch_size)
    )
    return [row[0] for row in query.tuples()]


def redrive_due(*, money_path_settings: MoneyPathSettings) -> RedriveReport:
    """One pass: re-drive every due step; a proposal whose re-drive fails is logged, the others go on."""
    report = RedriveReport()
    for proposal_id in due_proposals(money_path_settings):
        try:
            step = redrive(proposal_id, money_path_settings=money_path_settings)
        except Exception:
            report.failed += 1
            log.exception("money path: proposal %s could not be re-driven; the next sweep tries again", proposal_id)
            continue
        if step is None:
            report.finished += 1
        else:
            report.redriven[step.value] = report.redriven.get(step.value, 0) + 1
    return report


def schedule_next_sweep(after: datetime | None = None, *, money_path_settings: MoneyPathSettings) -> datetime | None:
    """Schedule the next pass as an outbox row, one per slot whoever schedules it (None: off)."""
    if money_path_settings.sweep_interval_seconds <= 0:
        return None
    slot, at = next_slot(money_path_settings.sweep_interval_seconds, after)
    with unit_of_work():
        enqueue(ActorName.SWEEP_MONEY_PATH, deliver_at=at, dedup_key=f"money-path-sweep:{slot}")
    return at

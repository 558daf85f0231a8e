"""What operators see of the money path: the proposals past their expected time (ops CLI
``proposals stuck``, the ``consignado_money_path_stuck`` gauge)."""

from __future__ import annotations

from datetime import datetime, timedelta

from models.db.money_path import MoneyPathStep
from models.domain.clock import now
from models.domain.money_path import RedrivePolicy, stuck
from models.services.money_path.redrive import next_attempt


def stuck_steps(rule: RedrivePolicy, *, limit: int = 100, at: datetime | None = None) -> list[MoneyPathStep]:
    """Open records past their expected time (re-driven at least once, or their next attempt has
    come), the longest waiting first."""
    at = at or now()
    first = timedelta(seconds=rule.first_seconds)
    query = (
        MoneyPathStep.select()
        .where(
            MoneyPathStep.finished_at.is_null(),
            (MoneyPathStep.attempts > 0)
            | (MoneyPathStep.next_attempt_at <= at)
            | (MoneyPathStep.next_attempt_at.is_null() & (MoneyPathStep.due_at <= at - first)),
        )
        .order_by(MoneyPathStep.due_at)
        .limit(limit)
    )
    return [row for row in query if stuck(row.attempts, next_attempt(row, rule), at)]


def stuck_count(at: datetime | None = None) -> int:
    """Open records the sweep had to re-drive, or whose next re-drive is overdue (the gauge; it
    needs no setting, so a record waiting for its first re-drive counts once it has had it)."""
    at = at or now()
    return (
        MoneyPathStep.select()
        .where(
            MoneyPathStep.finished_at.is_null(),
            (MoneyPathStep.attempts > 0) | (MoneyPathStep.next_attempt_at <= at),
        )
        .count()
    )


def open_proposal_ids(limit: int) -> list[str]:
    """Every proposal with an open record (``reconcile --all``), oldest step first."""
    query = (
        MoneyPathStep.select(MoneyPathStep.proposal_id)
        .where(MoneyPathStep.finished_at.is_null())
        .order_by(MoneyPathStep.due_at)
        .limit(limit)
    )
    return [row[0] for row in query.tuples()]

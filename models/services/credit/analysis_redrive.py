"""Re-drive of credit analyses whose run was lost (the rule: ``models/domain/stalled_runs.py``).

Run by the lifecycle sweep. The analysis actor retries a few times within seconds, then its
give-up hook closes the analysis; when the database was away all along, neither could write, the
message is dead-lettered and the proposal would wait in CREDIT_ANALYSIS_IN_PROGRESS for the stall
backstop (``lifecycle.analysis_stall_minutes``, then CRA-INT-001 and EXPIRED). Instead, an
analysis in progress for ``lifecycle.analysis_redrive_seconds`` is run again through the outbox,
once per such window, until it has an outcome or the backstop fails it. The give-up hook leaves an
analysis whose last error was the database being away to this re-drive (``give_up``).
"""

from __future__ import annotations

import logging

import peewee

from models.db.analysis import CreditAnalysis
from models.db.proposals import Proposal, StatusChange
from models.domain import stalled_runs
from models.domain.clock import now
from models.domain.lifecycles import AnalysisOutcome
from models.domain.statuses import Status
from models.services.platform.actor_names import ActorName
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import LifecycleSettings

log = logging.getLogger(__name__)


def _stalled(redrive_seconds: float) -> peewee.ModelSelect:
    """Analyses in progress of proposals that entered CREDIT_ANALYSIS_IN_PROGRESS (a first run, a
    retry or an automatic retry) at least ``redrive_seconds`` ago."""
    entered = (StatusChange.proposal == Proposal.id) & (StatusChange.sequence == Proposal.status_sequence)
    return (
        CreditAnalysis.select(CreditAnalysis.id, CreditAnalysis.proposal)
        .join(Proposal, on=(CreditAnalysis.proposal == Proposal.id))
        .join(StatusChange, on=entered)
        .where(
            CreditAnalysis.outcome == AnalysisOutcome.IN_PROGRESS.value,
            Proposal.status == Status.CREDIT_ANALYSIS_IN_PROGRESS.value,
            StatusChange.changed_at <= stalled_runs.stalled_before(now(), redrive_seconds),
        )
    )


def redrive_stalled_analyses(*, lifecycle_settings: LifecycleSettings, batch_size: int) -> int:
    """Queue the run of up to ``batch_size`` stalled analyses again; returns how many were queued
    (an analysis already driven in this window is not counted)."""
    wait = lifecycle_settings.analysis_redrive_seconds
    if wait <= 0:
        return 0
    at = now()
    window = stalled_runs.redrive_window(at, wait)
    stalled = list(_stalled(wait).order_by(CreditAnalysis.started_at).limit(batch_size).tuples())
    queued = 0
    with unit_of_work():
        for analysis_id, proposal_id in stalled:
            key = f"analysis-redrive:{analysis_id}:{window}"
            if enqueue(ActorName.RUN_CREDIT_ANALYSIS, analysis_id, dedup_key=key) is None:
                continue
            queued += 1
            log.warning(
                "credit analysis %s of proposal %s still in progress after %g s (its run lost in a "
                "crash or an outage): run again",
                analysis_id,
                proposal_id,
                wait,
            )
    return queued

"""Keeping each proposal's step record in step with its facts.

Every use case that moves a proposal along the money path calls :func:`track` in the transaction
that makes the move and enqueues the next message (under the proposal's lock): the record is
written before the message can run, so a message that is later lost for good (retries spent
while the database was away) still leaves a record with the time its step was due, and the
re-drive sweep (``redrive``) sends the step again. A step that ends the path finishes the record.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import peewee

from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.money_path import MoneyPathStep
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.money_path import Step, StepFacts, step_for
from models.domain.statuses import Status

log = logging.getLogger(__name__)

ENDORSEMENT_ROUTE = "ENDORSEMENT"
FRAUD_REVIEW_ROUTE = "FRAUD_REVIEW"
SIGNATURE_FINISHED = "PROCESS_FINISHED"  # the e-signature provider's final event


def signature_result_key(process_id: str) -> str:
    """The outbox dedup key of a provider event (``signature_events.queue_result``): the row keeps
    the event's arguments, so it is also the durable copy the re-drive sends again."""
    return f"esign:{process_id}:{SIGNATURE_FINISHED}"


def finished_signature_result(contract: Contract) -> OutboxMessage | None:
    """The outbox row that carried the provider's finished result for ``contract``, if one came."""
    if not contract.unico_process_id:
        return None
    return OutboxMessage.get_or_none(OutboxMessage.dedup_key == signature_result_key(contract.unico_process_id))


def _waiting_result(proposal: Proposal) -> bool:
    return Status(proposal.status) in (Status.CONTRACT_GENERATED, Status.AWAITING_SIGNATURE)


def _facts(proposal: Proposal, contract: Contract, signature_result_received: bool) -> StepFacts:
    return StepFacts(
        status=Status(proposal.status),
        signature_result_received=_waiting_result(proposal) and signature_result_received,
        routed_to_endorsement=contract.post_signature_route == ENDORSEMENT_ROUTE,
        endorsed=contract.endorsement_id is not None,
    )


def facts_of(proposal: Proposal, contract: Contract) -> StepFacts:
    """What decides the proposal's step, from its rows as they stand."""
    received = _waiting_result(proposal) and finished_signature_result(contract) is not None
    return _facts(proposal, contract, received)


# signature_result_key's text around the process id, for the same key built in SQL from the column.
_RESULT_KEY_PREFIX, _RESULT_KEY_SUFFIX = signature_result_key("\x00").split("\x00")


def _facts_and_record_query(contract_id, proposal_id):
    finished_result = OutboxMessage.select(OutboxMessage.id).where(
        OutboxMessage.dedup_key
        == peewee.Value(_RESULT_KEY_PREFIX).concat(Contract.unico_process_id).concat(_RESULT_KEY_SUFFIX)
    )
    return (
        Contract.select(
            Contract.id,
            Contract.unico_process_id,
            Contract.post_signature_route,
            Contract.endorsement_id,
            peewee.fn.EXISTS(finished_result).alias("signature_result_received"),
            MoneyPathStep,
        )
        .join(MoneyPathStep, peewee.JOIN.LEFT_OUTER, on=(MoneyPathStep.proposal_id == proposal_id), attr="record")
        .where(Contract.id == contract_id)
    )


# What track reads, in one round trip instead of two or three: the contract's columns that decide
# the step, whether the provider's finished result came (facts_of's outbox read) and the record.
_FACTS_AND_RECORD: Compiled[Contract] = Compiled(_facts_and_record_query, str, str)


def _facts_and_record(contract_id: str, proposal_id: str) -> tuple[Contract, bool, MoneyPathStep | None]:
    contract = _FACTS_AND_RECORD.first(contract_id, proposal_id)
    if contract is None:
        raise Contract.DoesNotExist(f"contract {contract_id} not found")
    record = getattr(contract, "record", None)
    if record is not None and record.proposal_id is None:  # the outer join found no record
        record = None
    received = bool(contract.unico_process_id) and bool(contract.signature_result_received)
    return contract, received, record


def track(proposal: Proposal, contract_id: str, *, due_at: datetime | None = None) -> Step | None:
    """Bring the proposal's step record in line with its facts (inside unit_of_work, the proposal
    locked): a new step starts with no re-drive, due at ``due_at`` (default now); the same step keeps
    its schedule unless ``due_at`` moves it; no step finishes the record. Returns the step."""
    contract, received, row = _facts_and_record(contract_id, proposal.id)
    step = step_for(_facts(proposal, contract, received))
    at = now()
    if step is None:
        finish_record(row, at)
        return None
    same = row is not None and row.finished_at is None and row.step == step and row.contract_id == contract_id
    if same and due_at is None:
        return step
    due = max(due_at or at, at)
    if row is None:
        MoneyPathStep.create(
            proposal_id=proposal.id, contract_id=contract_id, step=step.value, step_since=at, due_at=due, updated_at=at
        )
    else:
        _RESTART.execute(contract_id, step.value, at, due, proposal.id)
    return step


# A new step on an existing record (every move along the money path): rendered once
# (models/db/compiled.py). The re-drive count, its schedule, the error and the end start over.
_RESTART: Compiled[MoneyPathStep] = Compiled(
    lambda contract_id, step, at, due_at, proposal_id: MoneyPathStep.update(
        contract_id=contract_id,
        step=step,
        step_since=at,
        due_at=due_at,
        attempts=0,
        next_attempt_at=None,
        last_error=None,
        finished_at=None,
        updated_at=at,
    ).where(MoneyPathStep.proposal_id == proposal_id),
    str,
    str,
    MoneyPathStep.step_since,
    MoneyPathStep.due_at,
    str,
)


def finish_record(row: MoneyPathStep | None, at: datetime) -> None:
    """End the proposal's record, when it has one still open: nothing on the path is left to do."""
    if row is not None and row.finished_at is None:
        _FINISH.execute(at, at, row.proposal_id)


# The record's end (a step that ends the path), rendered once as well.
_FINISH: Compiled[MoneyPathStep] = Compiled(
    lambda finished_at, at, proposal_id: MoneyPathStep.update(finished_at=finished_at, updated_at=at).where(
        MoneyPathStep.proposal_id == proposal_id
    ),
    MoneyPathStep.finished_at,
    MoneyPathStep.updated_at,
    str,
)


def note_failure(contract_id: str, error: BaseException) -> None:
    """Keep the latest error of a step's attempt on its record (best effort: when the database is
    what failed, this fails too and the record keeps its previous error)."""
    text = f"{type(error).__name__}: {error}"[:500]
    try:
        MoneyPathStep.update(last_error=text, updated_at=now()).where(
            MoneyPathStep.contract_id == contract_id, MoneyPathStep.finished_at.is_null()
        ).execute()
    except Exception:
        log.debug("money path: could not note the failure of contract %s", contract_id, exc_info=True)


@contextmanager
def failures_noted(contract_id: str) -> Iterator[None]:
    """Run a step, noting its error on the record before it propagates (the actor retries it)."""
    try:
        yield
    except Exception as error:
        note_failure(contract_id, error)
        raise

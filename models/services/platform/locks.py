"""Locks for a change: a proposal row, or a customer (CPF).

The CPF lock serialises the decisions that look at every proposal of a CPF: starting a proposal,
generating a contract and applying a signature (one active contract per CPF). Order: a use case
that takes both takes the CPF's lock first, then the proposal's, so two of them never wait on
each other. PostgreSQL needs them explicitly; SQLite transactions begin IMMEDIATE, which
serialises writers.
"""

from __future__ import annotations

from models.db.compiled import Compiled
from models.db.database import db, is_postgres
from models.db.proposals import Proposal
from models.services.platform.unit_of_work import note_row_locked


def locked_proposal(proposal_id: str) -> Proposal:
    """The proposal, locked until the surrounding transaction ends (call inside unit_of_work)."""
    proposal = locked_proposal_or_none(proposal_id)
    if proposal is None:
        raise Proposal.DoesNotExist(f"proposal {proposal_id} not found")
    return proposal


def locked_proposal_or_none(proposal_id: str) -> Proposal | None:
    """Like ``locked_proposal``, but None when there is no such proposal."""
    proposal = _LOCKED_PROPOSAL.first(str(proposal_id))
    if proposal is not None:
        note_proposal_locked(proposal.id)
    return proposal


def proposal_lock_key(proposal_id: str) -> str:
    """The name under which a transaction remembers it holds the proposal's row lock."""
    return f"proposal:{proposal_id}"


def note_proposal_locked(proposal_id: str) -> None:
    """Remember that this transaction holds the proposal's row lock (PostgreSQL: a locking read
    or a status UPDATE took it). ``proposal_status.move`` then records a change in one statement:
    its order check may share the UPDATE's snapshot only when no other writer of the proposal can
    have committed since the lock was taken (see there)."""
    if is_postgres():
        note_row_locked(proposal_lock_key(proposal_id))


# FOR NO KEY UPDATE, not FOR UPDATE: lockers still wait for each other (and for a status UPDATE,
# which takes the same lock), but a row inserted elsewhere that references the proposal (a status
# change, an offer, a simulation: its foreign-key check takes FOR KEY SHARE) does not wait for the
# lock holder's commit. The proposal's id, the only key referenced, never changes.
ROW_LOCK = "FOR NO KEY UPDATE"


def _locking(query, of=None):
    """``query`` locking its proposal row on PostgreSQL (SQLite serialises writers instead); ``of``
    names the locked table when the query joins others."""
    return query.for_update(ROW_LOCK, of=of) if is_postgres() else query


def proposal_lock_query(proposal_id):
    """The proposal's locking read with its id and status sequence alone, for a statement that
    takes the lock along with other work (``webhooks.deliveries.finish_under_proposal_lock``;
    PostgreSQL). A locking read that waited returns the row as its holder committed it, so the
    sequence is the proposal's latest, and no other move can commit until this transaction ends."""
    return _locking(Proposal.select(Proposal.id, Proposal.status_sequence).where(Proposal.id == proposal_id))


_LOCK_ONLY: Compiled[Proposal] = Compiled(lambda proposal_id: proposal_lock_query(proposal_id).limit(1), str)


def lock_proposal_row(proposal_id: str) -> bool:
    """Lock the proposal's row without reading it (PostgreSQL; call inside unit_of_work); False
    when there is no such proposal."""
    if not _LOCK_ONLY.exists(str(proposal_id)):
        return False
    note_proposal_locked(str(proposal_id))
    return True


_LOCKED_PROPOSAL: Compiled[Proposal] = Compiled(
    lambda proposal_id: _locking(Proposal.select().where(Proposal.id == proposal_id).limit(1)), str
)


def lock_customer(cpf: str) -> None:
    """Hold a per-CPF lock until the surrounding transaction ends (call inside unit_of_work, before
    any proposal lock)."""
    if is_postgres():
        # The key keeps its historical "start:" prefix: processes of the previous release take it too.
        db.execute_sql("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"start:{cpf}",))


def locked_proposal_of_signing_process(process_id: str) -> Proposal | None:
    """The proposal of the contract signed through ``process_id``, locked like ``locked_proposal``,
    in one query (FOR NO KEY UPDATE OF the proposal only); None when no contract matches. Re-read
    the contract after it: only the proposal row is locked and fresh."""
    proposal = _LOCKED_PROPOSAL_OF_PROCESS.first(str(process_id))
    if proposal is not None:
        note_proposal_locked(proposal.id)
    return proposal


def _proposal_of_process(process_id):
    from models.db.contracts import Contract

    query = Proposal.select().join(Contract, on=(Contract.proposal == Proposal.id))
    return _locking(query.where(Contract.unico_process_id == process_id).limit(1), of=Proposal)


_LOCKED_PROPOSAL_OF_PROCESS: Compiled[Proposal] = Compiled(_proposal_of_process, str)

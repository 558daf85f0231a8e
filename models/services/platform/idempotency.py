"""Idempotency-Key records (README, "Idempotency-Key"): claim a key before a POST runs, keep the
answer it gave, replay it to a retry; the rules are ``models.domain.idempotency``.

A claim is its own short transaction, committed before the request runs, so a concurrent retry
sees the key in use (409) instead of running the request a second time. The answer is stored in
another transaction once the request answered; a 5xx releases the claim instead.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

from models.db.database import db, is_postgres
from models.db.idempotency import IdempotencyRecord
from models.domain import idempotency as rules
from models.domain.clock import now
from models.settings import IdempotencySettings


@dataclass(frozen=True)
class Claim:
    """The key this request holds: only its holder stores or releases the record."""

    record_id: int
    token: str


@dataclass(frozen=True)
class StoredAnswer:
    status_code: int
    headers: dict[str, str]
    body: str


@dataclass(frozen=True)
class Outcome:
    verdict: rules.Verdict
    claim: Claim | None = None  # CLAIM and TAKE_OVER: run the request under it
    answer: StoredAnswer | None = None  # REPLAY


def _key_record(row: IdempotencyRecord) -> rules.KeyRecord:
    return rules.KeyRecord(
        fingerprint=row.fingerprint,
        claimed_at=row.claimed_at,
        expires_at=row.expires_at,
        answered=row.status_code is not None,
    )


def claim(
    origin: str, key: str, fingerprint: str, *, method: str, path: str, idempotency_settings: IdempotencySettings
) -> Outcome:
    """Claim ``key`` for ``origin``'s request, or say what the request gets instead."""
    at = now()
    token = uuid.uuid4().hex
    fresh = {
        "fingerprint": fingerprint,
        "method": method,
        "path": path[:500],
        "claim_token": token,
        "claimed_at": at,
        "expires_at": rules.expiry(at, timedelta(hours=idempotency_settings.retention_hours)),
        "status_code": None,
        "response_headers": None,
        "response_body": None,
        "answered_at": None,
    }
    with db.atomic():
        # INSERT ... ON CONFLICT DO NOTHING: on PostgreSQL a concurrent claim of the same key waits
        # here until the other transaction ends, then sees its row.
        inserted = (
            IdempotencyRecord.insert(origin=origin, key=key, **fresh).on_conflict_ignore().as_rowcount().execute()
        )
        if inserted:
            return Outcome(rules.Verdict.CLAIM, claim=Claim(_record_id(origin, key), token))
        query = IdempotencyRecord.select().where(IdempotencyRecord.origin == origin, IdempotencyRecord.key == key)
        row = (query.for_update() if is_postgres() else query).get()
        timeout = timedelta(seconds=idempotency_settings.in_flight_timeout_seconds)
        verdict = rules.decide(_key_record(row), fingerprint, at, timeout)
        if verdict is rules.Verdict.REPLAY:
            return Outcome(verdict, answer=StoredAnswer(row.status_code, row.response_headers or {}, row.response_body))
        if verdict in (rules.Verdict.REUSED, rules.Verdict.IN_USE):
            return Outcome(verdict)
        if verdict is rules.Verdict.TAKE_OVER:
            fresh["expires_at"] = row.expires_at  # the key's life counts from its first request
        IdempotencyRecord.update(**fresh).where(IdempotencyRecord.id == row.id).execute()
        return Outcome(verdict, claim=Claim(row.id, token))


def _record_id(origin: str, key: str) -> int:
    return (
        IdempotencyRecord.select(IdempotencyRecord.id)
        .where(IdempotencyRecord.origin == origin, IdempotencyRecord.key == key)
        .scalar()
    )


def store_answer(held: Claim, status_code: int, headers: dict[str, str], body: str) -> bool:
    """Keep the answer the claimed request gave; False when the claim was taken over meanwhile."""
    with db.atomic():
        return bool(
            IdempotencyRecord.update(
                status_code=status_code, response_headers=headers, response_body=body, answered_at=now()
            )
            .where(IdempotencyRecord.id == held.record_id, IdempotencyRecord.claim_token == held.token)
            .execute()
        )


def release(held: Claim) -> None:
    """Free the key of a request that gave no final answer (a 5xx, an error), so a retry runs."""
    with db.atomic():
        (
            IdempotencyRecord.delete()
            .where(
                IdempotencyRecord.id == held.record_id,
                IdempotencyRecord.claim_token == held.token,
                IdempotencyRecord.status_code.is_null(),
            )
            .execute()
        )


def purge_expired() -> int:
    """Delete the records of keys past their retention; returns how many."""
    return IdempotencyRecord.delete().where(IdempotencyRecord.expires_at <= now()).execute()

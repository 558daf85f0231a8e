"""Idempotency-Key rules (README, "Idempotency-Key"): which keys are valid, what makes two requests
"the same", and what a repeated key gets, from the record of its first request.

A partner retries a POST on a timeout with the same ``Idempotency-Key``. The first request runs;
while it runs the key is *in use*; once it answered, the same request (same fingerprint) gets the
stored answer again and nothing runs twice, and a different request under the same key is a client
error. A key is kept ``retention`` from its first request; after that it is free again. A claim
whose request never finished (its process died) may be taken over after ``in_flight_timeout``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
# Printable ASCII without space: a UUID, a ULID or any token a client library generates.
KEY_PATTERN = r"^[!-~]{1,255}$"
_KEY = re.compile(r"[!-~]{1,255}")


def valid_key(value: str) -> bool:
    return _KEY.fullmatch(value) is not None


def canonical_body(raw: bytes) -> bytes:
    """The body as compared: JSON with sorted keys and no insignificant whitespace, so a client
    that re-serialises the same object (key order, spacing) sends the same request; a body that
    is not JSON (or is empty) is compared byte for byte."""
    if not raw.strip():
        return b""
    try:
        document = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return raw
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def fingerprint(method: str, path: str, query: Iterable[tuple[str, str]], body: bytes) -> str:
    """SHA-256 of the canonical request: method, path, sorted query parameters (``?async=true``
    is another request) and the canonical body."""
    digest = hashlib.sha256()
    for part in (method.upper(), path, json.dumps(sorted(query), ensure_ascii=False)):
        digest.update(part.encode("utf-8") + b"\x00")
    digest.update(canonical_body(body))
    return digest.hexdigest()


def worth_keeping(status_code: int) -> bool:
    """Final answers are replayed (2xx, 3xx, 4xx); a 5xx is the service failing to answer, so the
    key is released and the partner's retry runs again."""
    return status_code < 500


class Verdict(Enum):
    CLAIM = "claim"  # no live record: this request runs and claims the key
    TAKE_OVER = "take_over"  # the first request died without answering: this one runs instead
    REPLAY = "replay"  # answer the stored response
    REUSED = "reused"  # 422 IDEMPOTENCY_KEY_REUSED: another request under the same key
    IN_USE = "in_use"  # 409 IDEMPOTENCY_KEY_IN_USE: the first request is still running


@dataclass(frozen=True)
class KeyRecord:
    """What is kept of a key's first request."""

    fingerprint: str
    claimed_at: datetime
    expires_at: datetime
    answered: bool


def expiry(first_seen: datetime, retention: timedelta) -> datetime:
    return first_seen + retention


def decide(record: KeyRecord | None, request_fingerprint: str, at: datetime, in_flight_timeout: timedelta) -> Verdict:
    """What a request under a key gets. An expired record counts as none (it is purged later);
    a different request is refused whatever the first one's state."""
    if record is None or record.expires_at <= at:
        return Verdict.CLAIM
    if record.fingerprint != request_fingerprint:
        return Verdict.REUSED
    if record.answered:
        return Verdict.REPLAY
    if record.claimed_at + in_flight_timeout <= at:
        return Verdict.TAKE_OVER
    return Verdict.IN_USE

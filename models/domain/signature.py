"""Digital-signature validity (the spec's four checks) and signature statuses."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

PROCESS_RESULT_OK = "PROCESS_RESULT_OK"
AUTHENTICATION_RESULT_POSITIVE = "AUTHENTICATION_RESULT_POSITIVE"
LIVENESS_RESULT_LIVE = "LIVENESS_RESULT_LIVE"
# Anti-fraud: YES means the provider flags the person as a fraud risk.
TRUST_RESULT_YES = "TRUST_RESULT_YES"


class SignatureStatus(str, Enum):
    """Status of the signing process as exposed in ``digital_signature.status``."""

    PENDING = "PENDING"
    IN_PROGRESS = "IN_PROGRESS"
    SIGNED = "SIGNED"
    EXPIRED = "EXPIRED"
    REJECTED = "REJECTED"

    def __str__(self) -> str:
        return self.value


# The signing process is still open: the customer may sign, or the deadline may expire it.
OPEN_SIGNATURE_STATUSES = frozenset({SignatureStatus.PENDING, SignatureStatus.IN_PROGRESS})


def signature_valid(
    process_result: str | None,
    authentication_result: str | None,
    liveness_result: str | None,
    trust_result: str | None,
) -> bool:
    """True only when all four checks pass; a missing trust result is not a fraud flag."""
    return (
        process_result == PROCESS_RESULT_OK
        and authentication_result == AUTHENTICATION_RESULT_POSITIVE
        and liveness_result == LIVENESS_RESULT_LIVE
        and trust_result != TRUST_RESULT_YES
    )


def arrived_in_time(received_at: datetime, expires_at: datetime | None) -> bool:
    """A provider's result counts when it reached us before the signature deadline, however late
    we apply it (a queue backlog or an outage must not expire what the customer signed in time)."""
    return expires_at is None or received_at < expires_at

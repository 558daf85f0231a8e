"""When a verification-code message is lost: the rule the re-drive of code messages follows.

A code message is recorded QUEUED in the same transaction as its code, then handed to the
provider after the commit, and its outcome (SENT or FAILED) recorded. A crash, a database outage
or a restart between the commit and that record leaves it QUEUED: the customer may never have
received the code, and the partner, told nothing, waits for it. Once a message has had longer
than any send can take (the provider's timeouts and retries) without an outcome, it is judged
lost and a new code replaces it, so a proposal in TOKEN_SENT never waits on a message that will
not come. A FAILED message is not re-driven: the partner was answered MESSAGE_NOT_SENT and asks
again when it chooses.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from models.domain.lifecycles import MessageDeliveryStatus


def lost_before(at: datetime, unanswered_seconds: float) -> datetime:
    """Messages handed over at or before this instant and still without an outcome are lost."""
    return at - timedelta(seconds=unanswered_seconds)


def is_lost(delivery_status: str, sent_at: datetime, at: datetime, unanswered_seconds: float) -> bool:
    """True when a code message has had no outcome for ``unanswered_seconds`` (never when the
    setting is 0 or less: the re-drive is off)."""
    return (
        unanswered_seconds > 0
        and delivery_status == MessageDeliveryStatus.QUEUED
        and sent_at <= lost_before(at, unanswered_seconds)
    )

"""The sandbox test clock of one proposal: how far its time runs ahead of the real clock.

A partner testing its integration cannot wait 7 days for an offer to lapse or until 21:00 of the
next business day for a signature deadline. In the sandbox, ``POST /sandbox/proposals/{id}/advance``
moves one proposal's clock forward: from then on every deadline of that proposal is judged at
``real now + offset`` (:func:`shifted`), and the instants its use cases record are in that time too,
so deadlines computed after an advance count from the simulated instant. Every other proposal, and
everything outside proposals (tokens, webhook retries, the outbox relay), keeps the real clock; a
production proposal's offset is always 0, so its time is the real one.

The outbox relay publishes scheduled messages by the real clock, so a deadline of the proposal's
time is scheduled at its real instant (:func:`real_instant`), and an advance brings the proposal's
scheduled messages forward by the same amount (:func:`rescheduled`): those now due run at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from models.domain.clock import to_utc

# One advance moves a proposal's clock at most this far (every deadline of the service is within
# it: the longest, the 30-day idle expiry, fits 13 times); past it the request is refused (400).
MAX_ADVANCE_SECONDS = 400 * 24 * 3600
# The proposal's time never runs further ahead than this, however many advances: far past every
# deadline, and far from the end of the calendar the databases and Python can store.
MAX_OFFSET_SECONDS = 100 * 365 * 24 * 3600


def advance_refusal(offset_seconds: int, seconds: int) -> str | None:
    """Why moving a clock ``offset_seconds`` ahead by ``seconds`` more is refused, or None."""
    if seconds < 1 or seconds > MAX_ADVANCE_SECONDS:
        return f"seconds must be an integer from 1 to {MAX_ADVANCE_SECONDS}"
    if offset_seconds + seconds > MAX_OFFSET_SECONDS:
        return f"the proposal's clock cannot run more than {MAX_OFFSET_SECONDS} seconds ahead"
    return None


def shifted(real_now: datetime, offset_seconds: int) -> datetime:
    """The proposal's now: the real instant moved ``offset_seconds`` forward."""
    return to_utc(real_now) + timedelta(seconds=offset_seconds)


def real_instant(proposal_instant: datetime, offset_seconds: int) -> datetime:
    """The real instant at which the proposal's clock shows ``proposal_instant`` (the outbox's
    ``deliver_at`` of a deadline of the proposal's time)."""
    return to_utc(proposal_instant) - timedelta(seconds=offset_seconds)


def rescheduled(deliver_at: datetime, real_now: datetime, seconds: int) -> datetime:
    """A scheduled message's new real delivery instant after its proposal's clock moved ``seconds``
    ahead: the same instant of the proposal's time, at once when that instant has now passed."""
    return max(to_utc(real_now), to_utc(deliver_at) - timedelta(seconds=seconds))

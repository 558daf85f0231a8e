"""The one place a proposal's "now" comes from (README "Sandbox test clock").

Every deadline of a proposal (status timeouts, offer validity, the retry window, promotional
re-analysis, the signature deadline, the disbursement date) is judged, and every instant that
starts one is recorded, at :func:`proposal_now`. It is the real clock plus the proposal's sandbox
offset, which only the sandbox advance route changes: in production it is 0, and this is
``clock.now()``.
"""

from __future__ import annotations

from datetime import datetime

import peewee

from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.sandbox_clock import real_instant, shifted


def offset_of(proposal: Proposal) -> int:
    return int(proposal.clock_offset_seconds or 0)


def proposal_now(proposal: Proposal) -> datetime:
    """The current instant of ``proposal``'s clock."""
    return shifted(now(), offset_of(proposal))


def outbox_instant(proposal: Proposal, at: datetime) -> datetime:
    """The outbox ``deliver_at`` (real time) of ``at``, an instant of the proposal's clock."""
    return real_instant(at, offset_of(proposal))


def furthest_offset() -> int:
    """How far the furthest-ahead proposal clock runs (0 when none was advanced, as in production)."""
    return int(Proposal.select(peewee.fn.MAX(Proposal.clock_offset_seconds)).scalar() or 0)

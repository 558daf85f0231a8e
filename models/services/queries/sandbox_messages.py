"""Sandbox only: the messages the sandbox messaging provider "sent", for partners testing the token."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from models.db.compiled import Compiled
from models.db.contact import MessageSend
from models.db.proposals import Proposal
from models.db.sandbox import SandboxMessage


@dataclass(frozen=True)
class InboxMessage:
    """One message as the sandbox provider delivered it, with the proposal it was sent for."""

    proposal_id: str
    channel: str
    text: str
    token: str | None
    sent_at: datetime


# The origin's sends to the phone: rendered once (models/db/compiled.py). The messages' read below
# stays peewee's: its IN list has one entry per send, so its SQL changes with their number.
_OWN_SENDS: Compiled[MessageSend] = Compiled(
    lambda phone, origin: (
        MessageSend.select(MessageSend.id, MessageSend.proposal)
        .join(Proposal)
        .where(MessageSend.recipient == phone, Proposal.origin == origin)
    ),
    str,
    str,
)


def sandbox_messages(origin: str, phone: str) -> list[InboxMessage]:
    """Messages (code in clear) sent to ``phone`` for proposals of ``origin``, newest first."""
    proposal_of = {str(row.id): row.proposal_id for row in _OWN_SENDS.all(phone, origin)}
    if not proposal_of:
        return []
    rows = (
        SandboxMessage.select()
        .where(SandboxMessage.reference.in_(list(proposal_of)))
        .order_by(SandboxMessage.sent_at.desc(), SandboxMessage.id.desc())
    )
    return [InboxMessage(proposal_of[row.reference], row.channel, row.text, row.token, row.sent_at) for row in rows]

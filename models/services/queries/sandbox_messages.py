"""Sandbox only: the messages the sandbox messaging provider "sent", for partners testing the token."""

from __future__ import annotations

from models.db.contact import MessageSend
from models.db.proposals import Proposal
from models.db.sandbox import SandboxMessage


def sandbox_messages(origin: str, phone: str) -> list[SandboxMessage]:
    """Messages (code in clear) sent to ``phone`` for proposals of ``origin``, newest first."""
    own_sends = (
        MessageSend.select(MessageSend.id)
        .join(Proposal)
        .where(MessageSend.recipient == phone, Proposal.origin == origin)
    )
    references = [str(row.id) for row in own_sends]
    if not references:
        return []
    return list(
        SandboxMessage.select()
        .where(SandboxMessage.reference.in_(references))
        .order_by(SandboxMessage.sent_at.desc(), SandboxMessage.id.desc())
    )

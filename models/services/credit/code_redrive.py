"""Re-drive of lost verification-code messages (the rule: ``models/domain/code_messages.py``).

Run by the lifecycle sweep. A proposal in TOKEN_SENT whose latest code message has had no outcome
for ``contact.unanswered_message_seconds`` gets a new code on the same channel, decided under the
proposal's lock like a resend (the cooldown does not apply: the customer may have received
nothing). The lost message is closed FAILED, naming the message that replaced it, so each lost
message is re-driven once; the new one is re-driven in turn if it is lost too, until one has an
outcome or the proposal leaves TOKEN_SENT. Every re-drive logs a WARNING; the gauge
``consignado_code_messages_unanswered`` counts the messages waiting for one.
"""

from __future__ import annotations

import logging

import peewee

from models.db.contact import MessageSend
from models.db.proposals import Proposal
from models.domain import code_messages
from models.domain.clock import now
from models.domain.errors import DomainError
from models.domain.lifecycles import MessageDeliveryStatus
from models.domain.statuses import Status
from models.external.messaging import MessagingPort
from models.services.credit.contact import deliver_code, issue_code, provider_for
from models.services.platform.locks import locked_proposal_or_none
from models.services.platform.unit_of_work import unit_of_work
from models.settings import ContactSettings

log = logging.getLogger(__name__)

TOKEN = "token"


def _lost(unanswered_seconds: float) -> peewee.ModelSelect:
    """Latest code messages of TOKEN_SENT proposals that have had no outcome for too long."""
    newer = MessageSend.alias()
    later_code = newer.select(newer.id).where(
        newer.proposal == MessageSend.proposal, newer.purpose == TOKEN, newer.id > MessageSend.id
    )
    return (
        MessageSend.select(MessageSend.id)
        .join(Proposal, on=(MessageSend.proposal == Proposal.id))
        .where(
            MessageSend.purpose == TOKEN,
            MessageSend.delivery_status == MessageDeliveryStatus.QUEUED.value,
            MessageSend.sent_at <= code_messages.lost_before(now(), unanswered_seconds),
            Proposal.status == Status.TOKEN_SENT.value,
            ~peewee.fn.EXISTS(later_code),
        )
    )


def unanswered_count(contact_settings: ContactSettings) -> int:
    """Code messages judged lost and not yet replaced (the gauge)."""
    if contact_settings.unanswered_message_seconds <= 0:
        return 0
    return _lost(contact_settings.unanswered_message_seconds).count()


def redrive_lost_codes(
    *,
    sms: MessagingPort,
    messaging_app: MessagingPort,
    contact_settings: ContactSettings,
    jwt_signing_key: str,
    batch_size: int,
) -> int:
    """Replace up to ``batch_size`` lost code messages with new codes; returns how many were sent
    again. A replacement that fails is logged and left to the next sweep (if the failure left it
    QUEUED) or to the partner (FAILED: MESSAGE_NOT_SENT, as for any resend)."""
    wait = contact_settings.unanswered_message_seconds
    if wait <= 0:
        return 0
    ids = [row[0] for row in _lost(wait).order_by(MessageSend.sent_at).limit(batch_size).tuples()]
    replaced = 0
    for send_id in ids:
        try:
            if _replace(send_id, wait, sms=sms, messaging_app=messaging_app, jwt_signing_key=jwt_signing_key):
                replaced += 1
        except DomainError:
            pass  # the provider refused the new code: recorded FAILED and logged by deliver_code
        except Exception:
            log.exception("code message %s: the re-drive failed; the next sweep tries again", send_id)
    return replaced


def _replace(
    send_id: int, wait: float, *, sms: MessagingPort, messaging_app: MessagingPort, jwt_signing_key: str
) -> bool:
    """Under the proposal's lock, check again that the message is lost and still the latest, then
    close it and issue a new code; the new code is handed to the provider after the commit."""
    with unit_of_work():
        lost = MessageSend.get_or_none(MessageSend.id == send_id)
        if lost is None:
            return False
        proposal = locked_proposal_or_none(lost.proposal_id)
        lost = MessageSend.get_by_id(send_id)  # re-read under the lock: a resend may have won
        if (
            proposal is None
            or proposal.status != Status.TOKEN_SENT.value
            or not code_messages.is_lost(lost.delivery_status, lost.sent_at, now(), wait)
            or _has_later_code(lost)
        ):
            return False
        _token, send, code = issue_code(proposal, lost.channel, jwt_signing_key)
        MessageSend.update(
            delivery_status=MessageDeliveryStatus.FAILED.value,
            error=f"no outcome recorded within {wait:g} s; replaced by message {send.id}",
        ).where(MessageSend.id == lost.id).execute()
    log.warning(
        "code message %s of proposal %s had no outcome after %g s (lost in a crash or an outage): "
        "a new code goes out as message %s by %s",
        lost.id,
        proposal.id,
        wait,
        send.id,
        send.channel,
    )
    deliver_code(send, code, provider_for(send.channel, sms=sms, messaging_app=messaging_app))
    return True


def _has_later_code(send: MessageSend) -> bool:
    return (
        MessageSend.select()
        .where(MessageSend.proposal == send.proposal_id, MessageSend.purpose == TOKEN, MessageSend.id > send.id)
        .exists()
    )

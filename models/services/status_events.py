"""The status-change event body (spec: Events), its delivery record (one per change) and the
per-proposal order: a later event waits while an earlier one of the same proposal is pending."""
from __future__ import annotations

import peewee

from models.db.database import db
from models.db.partners import Partner
from models.db.proposals import Proposal, StatusChange
from models.db.webhooks import WebhookDelivery
from models.domain.clock import isoformat_z, now
from models.services.deliveries import FINAL

EVENT_TYPE = "proposal.status.changed"


def event_body(change: StatusChange, proposal: Proposal, partner: Partner) -> dict:
    """Exactly the spec's fields; ``timestamp`` and ``updated_at`` are the time of the change."""
    return {
        "origin": {"code": partner.code, "name": partner.name},
        "timestamp": isoformat_z(change.changed_at),
        "event_type": EVENT_TYPE,
        "proposal_id": proposal.id,
        "proposal_data": {"cpf": proposal.cpf, "phone": proposal.phone,
                          "created_at": isoformat_z(proposal.created_at),
                          "updated_at": isoformat_z(change.changed_at)},
        "status_change": {"old_status": change.old_status, "new_status": change.new_status},
    }


def record_event(status_change_id: int) -> WebhookDelivery | None:
    """Create the delivery row for a change (idempotent: redelivery finds the existing row)."""
    change = StatusChange.get_or_none(StatusChange.id == status_change_id)
    proposal = Proposal.get_or_none(Proposal.id == change.proposal_id) if change is not None else None
    if proposal is None:  # the change (or its proposal) was removed after the message was sent
        return None
    partner = Partner.get(Partner.code == proposal.origin)
    key = f"{proposal.id}:{change.new_status}:{change.sequence}"
    try:
        with db.atomic():  # a savepoint: a duplicate must not abort the caller's transaction
            return WebhookDelivery.create(kind="status", partner_code=partner.code, proposal_id=proposal.id,
                                          idempotency_key=key, sequence=change.sequence,
                                          payload=event_body(change, proposal, partner), next_attempt_at=now())
    except peewee.IntegrityError:
        return WebhookDelivery.get(WebhookDelivery.kind == "status", WebhookDelivery.partner_code == partner.code,
                                   WebhookDelivery.idempotency_key == key)


def _final_sequences(proposal_id: str, below: int) -> int:
    return (WebhookDelivery.select()
            .where(WebhookDelivery.kind == "status", WebhookDelivery.proposal_id == proposal_id,
                   WebhookDelivery.sequence < below, WebhookDelivery.status.in_(FINAL))
            .count())


def earlier_pending(delivery: WebhookDelivery) -> bool:
    """True while a change of the same proposal with a lower sequence has no final delivery yet
    (its message may not even have run: the change row is what counts)."""
    earlier = (StatusChange.select()
               .where(StatusChange.proposal == delivery.proposal_id, StatusChange.sequence < delivery.sequence)
               .count())
    return earlier > _final_sequences(delivery.proposal_id, delivery.sequence)


def next_waiting_change(delivery: WebhookDelivery) -> StatusChange | None:
    """The change right after ``delivery``'s when its event was recorded and still waits (held or
    retrying). One whose message has not run yet needs no release: it will find this one final."""
    change = (StatusChange.select()
              .where(StatusChange.proposal == delivery.proposal_id, StatusChange.sequence > delivery.sequence)
              .order_by(StatusChange.sequence).first())
    if change is None:
        return None
    waiting = (WebhookDelivery.select()
               .where(WebhookDelivery.kind == "status", WebhookDelivery.proposal_id == delivery.proposal_id,
                      WebhookDelivery.sequence == change.sequence, WebhookDelivery.status.not_in(FINAL))
               .exists())
    return change if waiting else None


def change_of(delivery: WebhookDelivery) -> StatusChange:
    """The status change a delivery announces."""
    return StatusChange.get(StatusChange.proposal == delivery.proposal_id,
                            StatusChange.sequence == delivery.sequence)

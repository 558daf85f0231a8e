"""The status-change event body (spec: Events) and its delivery record, one per change."""
from __future__ import annotations

import peewee

from models.db.partners import Partner
from models.db.proposals import Proposal, StatusChange
from models.db.webhooks import WebhookDelivery
from models.domain.clock import isoformat_z, now

EVENT_TYPE = "proposal.status.changed"


def event_body(change: StatusChange, proposal: Proposal, partner: Partner) -> dict:
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
    if change is None:
        return None
    proposal = Proposal.get_by_id(change.proposal_id)
    partner = Partner.get(Partner.code == proposal.origin)
    key = f"{proposal.id}:{change.new_status}:{change.sequence}"
    try:
        return WebhookDelivery.create(kind="status", partner_code=partner.code, proposal_id=proposal.id,
                                      idempotency_key=key, sequence=change.sequence,
                                      payload=event_body(change, proposal, partner), next_attempt_at=now())
    except peewee.IntegrityError:
        return WebhookDelivery.get(WebhookDelivery.kind == "status", WebhookDelivery.partner_code == partner.code,
                                   WebhookDelivery.idempotency_key == key)

"""Recording a status-change event is idempotent and tolerates a vanished proposal."""

from datetime import date

import pytest

from models.db.proposals import Proposal, StatusChange
from models.db.webhooks import WebhookDelivery
from models.domain.status_machine import Trigger
from models.services.platform.proposal_status import move, record_creation
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks.status_events import record_event


def _proposal() -> Proposal:
    with unit_of_work():
        proposal = Proposal.create(
            origin="PARTNER_A",
            product_id="p",
            cpf="52998224725",
            full_name="MARIA",
            birth_date=date(1985, 4, 12),
            phone="+5511987654321",
            status="CREATED",
        )
        record_creation(proposal)
        move(proposal, Trigger.SEND_CONTACT)
    return proposal


def test_one_delivery_per_change_however_often_the_message_runs():
    proposal = _proposal()
    change = StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.new_status == "TOKEN_SENT")
    first, again = record_event(change.id), record_event(change.id)
    assert first.id == again.id
    assert WebhookDelivery.select().where(WebhookDelivery.idempotency_key == first.idempotency_key).count() == 1
    assert first.payload["status_change"] == {"old_status": "CREATED", "new_status": "TOKEN_SENT"}


def test_a_removed_proposal_records_nothing():
    proposal = _proposal()
    change_id = StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.sequence == 1).id
    Proposal.delete().where(Proposal.id == proposal.id).execute()
    StatusChange.delete().where(StatusChange.id == change_id).execute()
    assert record_event(change_id) is None


def test_concurrent_change_is_a_409():
    from models.services.platform.proposal_status import ConcurrentChange

    proposal = _proposal()
    stale = Proposal.get_by_id(proposal.id)
    with unit_of_work():
        move(Proposal.get_by_id(proposal.id), Trigger.VALIDATE_TOKEN)
    with pytest.raises(ConcurrentChange) as raised, unit_of_work():
        move(stale, Trigger.VALIDATE_TOKEN)
    assert raised.value.http_status == 409 and raised.value.error_code == "CONCURRENT_UPDATE"

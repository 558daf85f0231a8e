"""Outgoing webhook deliveries (status change and auction) and every attempt made."""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, MoneyField, UtcDateTimeField
from models.db.proposals import new_id
from models.domain.clock import now


class WebhookDelivery(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    kind = peewee.CharField(max_length=16)  # status | auction
    partner_code = peewee.CharField(max_length=64, index=True)
    proposal_id = peewee.CharField(max_length=64, index=True)
    # Stable per event: X-Idempotency-Key for auctions, proposal_id:new_status:sequence for status.
    idempotency_key = peewee.CharField(max_length=128)
    sequence = peewee.IntegerField(default=0)
    payload = JsonField()
    # PENDING | DELIVERED | FAILED | SKIPPED (status event of a partner without a webhook URL)
    status = peewee.CharField(max_length=16, default="PENDING", index=True)
    # Attempts of the current round (a replay starts a new round; DeliveryAttempt keeps them all).
    attempts = peewee.IntegerField(default=0)
    next_attempt_at = UtcDateTimeField(null=True)
    delivered_at = UtcDateTimeField(null=True)
    failed_at = UtcDateTimeField(null=True)
    created_at = UtcDateTimeField(default=now, index=True)
    # Added for delivery (issue #6): first attempt of the current round (the retry schedule's
    # origin), the last failure seen, and how many times ops replayed it.
    round_started_at = UtcDateTimeField(null=True)
    last_error = peewee.TextField(null=True)
    replays = peewee.IntegerField(default=0)
    # Durable re-drive of a status event whose message was lost (issue 12): how many times the
    # sweep sent it again, and when the next re-drive is due if it is still pending then.
    redrives = peewee.IntegerField(default=0)
    redrive_at = UtcDateTimeField(null=True)

    class Meta:
        indexes = (
            (("kind", "partner_code", "idempotency_key"), True),
            # A proposal's event by sequence: the order checks of every status event and the
            # sweep's search for changes with no delivery (an anti-join probed once per change).
            (("proposal_id", "sequence"), False),
        )


class DeliveryAttempt(BaseModel):
    delivery = peewee.ForeignKeyField(WebhookDelivery, backref="attempt_log", on_delete="CASCADE")
    number = peewee.IntegerField()
    url = peewee.CharField(max_length=500)
    request_id = peewee.CharField(max_length=64)
    status_code = peewee.IntegerField(null=True)
    error = peewee.TextField(null=True)
    latency_ms = peewee.IntegerField(null=True)
    response_snippet = peewee.TextField(null=True)
    attempted_at = UtcDateTimeField(default=now)


class AuctionProposal(BaseModel):
    """An auction proposal received from the payroll system, offered to partners."""

    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    external_id = peewee.CharField(max_length=64, unique=True)
    document = peewee.CharField(max_length=11)
    name = peewee.CharField(max_length=200)
    available_balance = MoneyField()
    installment_quantity = peewee.IntegerField()
    eligible = peewee.BooleanField(default=True)
    received_at = UtcDateTimeField(default=now)
    extra = JsonField(null=True)

"""Transactional outbox: messages written in the same transaction as the change that causes them.

A row is published to the broker right after commit (fast path) or by the sweeper; rows with a
future ``deliver_at`` are the durable scheduler for long deadlines (they survive restarts).
"""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, UtcDateTimeField
from models.db.proposals import new_id
from models.domain.clock import now


class OutboxMessage(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    actor_name = peewee.CharField(max_length=100)
    args = JsonField(default=list)
    kwargs = JsonField(default=dict)
    # Optional uniqueness key: scheduling the same job twice keeps one row.
    dedup_key = peewee.CharField(max_length=200, null=True, unique=True)
    request_id = peewee.CharField(max_length=64, null=True)
    deliver_at = UtcDateTimeField(default=now)
    created_at = UtcDateTimeField(default=now)
    published_at = UtcDateTimeField(null=True)
    # Set on a row written due now while an after-commit publisher is installed: that publish owns
    # the row until then, and the sweeper takes it over only once it lapses (unit_of_work.enqueue).
    claimed_until = UtcDateTimeField(null=True)
    publish_attempts = peewee.IntegerField(default=0)
    last_error = peewee.TextField(null=True)
    canceled_at = UtcDateTimeField(null=True)
    # Set when the relay cannot publish the row at all (unknown actor, arguments the actor does not
    # take): the row is kept with its error for ops (`make cli ARGS="outbox parked"`) and skipped, so
    # one bad row never stalls the messages behind it.
    parked_at = UtcDateTimeField(null=True)

    class Meta:
        indexes = ((("published_at", "deliver_at"), False),)

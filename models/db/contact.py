"""SMS tokens and the record of every message sent (SMS, messaging app, email)."""

import peewee

from models.db.database import BaseModel
from models.db.fields import UtcDateTimeField
from models.db.proposals import Proposal
from models.domain.clock import now


class ContactToken(BaseModel):
    proposal = peewee.ForeignKeyField(Proposal, backref="tokens", on_delete="CASCADE")
    phone = peewee.CharField(max_length=20)
    token_hash = peewee.CharField(max_length=128)  # never the token in clear
    expires_at = UtcDateTimeField()
    attempts = peewee.IntegerField(default=0)
    consumed_at = UtcDateTimeField(null=True)
    superseded_at = UtcDateTimeField(null=True)
    created_at = UtcDateTimeField(default=now)


class MessageSend(BaseModel):
    proposal = peewee.ForeignKeyField(Proposal, backref="messages", on_delete="CASCADE")
    channel = peewee.CharField(max_length=16)  # sms | whatsapp | email
    # Indexed for the sandbox inbox (GET /sandbox/messages?phone=), which partners poll for the code.
    recipient = peewee.CharField(max_length=254, index=True)
    purpose = peewee.CharField(max_length=32, default="token")
    text = peewee.TextField()  # the token is masked in this copy
    delivery_status = peewee.CharField(max_length=16, default="QUEUED")  # QUEUED | SENT | FAILED
    provider_message_id = peewee.CharField(max_length=100, null=True)
    error = peewee.TextField(null=True)
    sent_at = UtcDateTimeField(default=now, index=True)

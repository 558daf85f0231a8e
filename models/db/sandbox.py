"""What the sandbox SMS and messaging-app providers "delivered" (sandbox mode only).

This is the sandbox provider's own store, the one place the code is kept in clear, so that
partners can read it at GET /v1/sandbox/messages. MessageSend keeps only the masked text.
"""

import peewee

from models.db.database import BaseModel
from models.db.fields import UtcDateTimeField
from models.domain.clock import now


class SandboxMessage(BaseModel):
    channel = peewee.CharField(max_length=16)  # sms | whatsapp
    phone = peewee.CharField(max_length=20, index=True)
    text = peewee.TextField()
    token = peewee.CharField(max_length=6, null=True)
    reference = peewee.CharField(max_length=64, null=True, index=True)  # MessageSend id (the inbox's lookup)
    sent_at = UtcDateTimeField(default=now, index=True)

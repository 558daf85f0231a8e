"""Idempotency keys of partners' POST requests and the answer each first request gave."""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, UtcDateTimeField


class IdempotencyRecord(BaseModel):
    id = peewee.AutoField()
    origin = peewee.CharField(max_length=64)  # Partner.code of the token that sent the key
    key = peewee.CharField(max_length=255)
    fingerprint = peewee.CharField(max_length=64)  # SHA-256 of the canonical request
    method = peewee.CharField(max_length=8)
    path = peewee.CharField(max_length=500)
    # A fresh token per claim: only the request holding it stores or releases the record.
    claim_token = peewee.CharField(max_length=32)
    claimed_at = UtcDateTimeField()
    expires_at = UtcDateTimeField(index=True)
    # The answer, once the first request gave one (null while it runs).
    status_code = peewee.IntegerField(null=True)
    response_headers = JsonField(null=True)
    response_body = peewee.TextField(null=True)
    answered_at = UtcDateTimeField(null=True)

    class Meta:
        indexes = ((("origin", "key"), True),)

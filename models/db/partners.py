"""Partners (origins) and their API credentials, one set per environment."""

import peewee

from models.db.database import BaseModel
from models.db.fields import UtcDateTimeField
from models.domain.clock import now

WEBHOOK_AUTH_MODES = ("none", "api_key", "bearer")


class Partner(BaseModel):
    code = peewee.CharField(max_length=64, unique=True)
    name = peewee.CharField(max_length=200)
    insurance_enabled = peewee.BooleanField(default=False)
    recontracting_enabled = peewee.BooleanField(default=False)
    # Status-change webhook: URL and the auth mode chosen at onboarding.
    webhook_url = peewee.CharField(max_length=500, null=True)
    webhook_auth_mode = peewee.CharField(max_length=16, default="none")
    webhook_auth_header = peewee.CharField(max_length=100, null=True)
    webhook_auth_value = peewee.CharField(max_length=500, null=True)
    # Per-partner secret for the X-Signature HMAC on every webhook delivery.
    webhook_signing_secret = peewee.CharField(max_length=128, null=True)
    auction_url = peewee.CharField(max_length=500, null=True)
    auction_api_key = peewee.CharField(max_length=500, null=True)
    technical_contact = peewee.CharField(max_length=200, null=True)
    # A disabled partner gets no token and its tokens answer 401 (`partners disable CODE`). Tokens
    # carry the generation they were issued in; a disable moves it on, so tokens issued before it
    # stay invalid after `partners enable`.
    enabled = peewee.BooleanField(default=True)
    token_generation = peewee.IntegerField(default=0)
    created_at = UtcDateTimeField(default=now)
    updated_at = UtcDateTimeField(default=now)


class PartnerCredential(BaseModel):
    partner = peewee.ForeignKeyField(Partner, backref="credentials", on_delete="CASCADE")
    environment = peewee.CharField(max_length=16)  # staging | production
    client_id = peewee.CharField(max_length=100, unique=True)
    secret_hash = peewee.CharField(max_length=300)
    created_at = UtcDateTimeField(default=now)
    revoked_at = UtcDateTimeField(null=True)
    last_used_at = UtcDateTimeField(null=True)

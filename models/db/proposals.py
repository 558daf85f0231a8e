"""Proposals, their status history and the consent captured for credit analysis."""

import uuid

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, UtcDateTimeField
from models.domain.clock import now


def new_id() -> str:
    return str(uuid.uuid4())


class Proposal(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    origin = peewee.CharField(max_length=64, index=True)  # Partner.code that owns it
    product_id = peewee.CharField(max_length=36)
    cpf = peewee.CharField(max_length=11, index=True)
    full_name = peewee.CharField(max_length=200)
    birth_date = peewee.DateField()
    email = peewee.CharField(max_length=254, null=True)
    phone = peewee.CharField(max_length=20, null=True, index=True)
    status = peewee.CharField(max_length=64, index=True)
    # Disbursement data (traditional account or Pix key; a Pix key clears the account fields).
    bank_code = peewee.CharField(max_length=3, null=True)
    bank_branch = peewee.CharField(max_length=10, null=True)
    bank_branch_digit = peewee.CharField(max_length=2, null=True)
    bank_account = peewee.CharField(max_length=20, null=True)
    bank_account_digit = peewee.CharField(max_length=2, null=True)
    account_type = peewee.CharField(max_length=16, null=True)
    use_pix_cpf = peewee.BooleanField(default=False)
    pix_key = peewee.CharField(max_length=100, null=True)
    pix_key_type = peewee.CharField(max_length=8, null=True)
    selected_offer_id = peewee.CharField(max_length=36, null=True)
    user_redirect_url = peewee.CharField(max_length=500, null=True)
    rejection_reason = peewee.CharField(max_length=64, null=True)
    # Monotonic counter of status changes; orders webhook events of one proposal.
    status_sequence = peewee.IntegerField(default=0)
    # Sandbox test clock: how many seconds this proposal's time runs ahead of the real clock
    # (models/domain/sandbox_clock.py); only the sandbox advance route changes it from 0.
    clock_offset_seconds = peewee.BigIntegerField(default=0)
    created_at = UtcDateTimeField(default=now, index=True)
    updated_at = UtcDateTimeField(default=now, index=True)

    class Meta:
        indexes = ((("origin", "created_at"), False), (("origin", "status"), False), (("origin", "updated_at"), False))


class StatusChange(BaseModel):
    proposal = peewee.ForeignKeyField(Proposal, backref="status_changes", on_delete="CASCADE")
    sequence = peewee.IntegerField()
    old_status = peewee.CharField(max_length=64, null=True)
    new_status = peewee.CharField(max_length=64)
    trigger = peewee.CharField(max_length=64)
    # Where the change came from (http, actor, scheduler, ops) and the request id that caused it.
    source = peewee.CharField(max_length=32, default="http")
    request_id = peewee.CharField(max_length=64, null=True)
    details = JsonField(null=True)
    changed_at = UtcDateTimeField(default=now)

    class Meta:
        indexes = ((("proposal", "sequence"), True),)


class Consent(BaseModel):
    proposal = peewee.ForeignKeyField(Proposal, backref="consents", on_delete="CASCADE")
    ip = peewee.CharField(max_length=45)
    latitude = peewee.DoubleField()
    longitude = peewee.DoubleField()
    document_text = peewee.TextField()
    channel = peewee.CharField(max_length=16)
    captured_at = UtcDateTimeField(default=now)

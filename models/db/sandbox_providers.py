"""State kept by the sandbox external systems (e-signature, funding partner).

These tables stand in for the providers' own databases: they are written in the providers' own
transactions, so a crash of ours after a provider call does not erase what the provider did (the
sandbox funder therefore still recognises a payment's idempotency key after a restart).
"""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, MoneyField, UtcDateTimeField
from models.db.proposals import new_id
from models.domain.clock import now


class SandboxSigningProcess(BaseModel):
    process_id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    reference = peewee.CharField(max_length=64, unique=True)  # our contract id (idempotent create)
    signer_cpf = peewee.CharField(max_length=11)
    signer_name = peewee.CharField(max_length=200)
    redirect_url = peewee.CharField(max_length=500, null=True)
    status = peewee.CharField(max_length=16, default="PENDING")  # PENDING | IN_PROGRESS | COMPLETED | CANCELED
    results = JsonField(null=True)
    created_at = UtcDateTimeField(default=now)
    completed_at = UtcDateTimeField(null=True)


class SandboxFundingApplication(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    reference = peewee.CharField(max_length=64, unique=True)  # our contract id (idempotent create)
    ccb_number = peewee.CharField(max_length=32, unique=True)
    cpf = peewee.CharField(max_length=11)
    amount = MoneyField()
    status = peewee.CharField(max_length=16, default="OPEN")  # OPEN | PAID | CANCELED | WITHDRAWN
    created_at = UtcDateTimeField(default=now)
    canceled_at = UtcDateTimeField(null=True)


class SandboxPayment(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    idempotency_key = peewee.CharField(max_length=64, unique=True)
    application_id = peewee.CharField(max_length=36)
    amount = MoneyField()
    destination = JsonField()
    status = peewee.CharField(max_length=16)  # PAID | FAILED
    failure_reason = peewee.CharField(max_length=200, null=True)
    paid_at = UtcDateTimeField(null=True)
    created_at = UtcDateTimeField(default=now)

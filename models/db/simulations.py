"""Simulation requests: the row the simulation actor fills and the waiting route reads."""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, UtcDateTimeField
from models.db.proposals import Proposal, new_id
from models.domain.clock import now


class Simulation(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    proposal = peewee.ForeignKeyField(Proposal, backref="simulations", on_delete="CASCADE")
    mode = peewee.CharField(max_length=16)  # BY_INSTALLMENTS | BY_LOAN_AMOUNT
    installments = peewee.IntegerField(null=True)
    loan_amount = peewee.CharField(max_length=32, null=True)  # as sent (validated by the domain)
    insured = peewee.BooleanField(default=False)
    status = peewee.CharField(max_length=8, default="PENDING")  # PENDING | DONE | FAILED
    offer_ids = JsonField(null=True)
    error = JsonField(null=True)  # {http_status, message, error_code, details} when FAILED
    created_at = UtcDateTimeField(default=now)
    finished_at = UtcDateTimeField(null=True)

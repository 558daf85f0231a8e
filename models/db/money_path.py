"""The money path's durable step record: one row per proposal from contract generation until it
is paid or closed (``models/domain/money_path.py`` says why, ``models/services/money_path`` keeps
it)."""

import peewee

from models.db.database import BaseModel
from models.db.fields import UtcDateTimeField
from models.domain.clock import now


class MoneyPathStep(BaseModel):
    proposal_id = peewee.CharField(max_length=64, primary_key=True)
    contract_id = peewee.CharField(max_length=36)
    step = peewee.CharField(max_length=32)
    step_since = UtcDateTimeField(default=now)
    # When the step's own message is expected to carry it (its start, or the instant it was
    # scheduled for: the payment day, the end of the payroll maintenance window).
    due_at = UtcDateTimeField(default=now)
    # Re-drives of the current step, and when the next one is due (None before the first: then it
    # is due ``redrive_first_seconds`` after ``due_at``, a setting the sweep applies).
    attempts = peewee.IntegerField(default=0)
    next_attempt_at = UtcDateTimeField(null=True)
    last_error = peewee.TextField(null=True)
    last_redrive_at = UtcDateTimeField(null=True)
    # Set once nothing on the path is left for us to do (paid, failed, reproved, cancelled, expired).
    finished_at = UtcDateTimeField(null=True)
    updated_at = UtcDateTimeField(default=now)

    class Meta:
        indexes = ((("finished_at", "due_at"), False),)

"""Banking-data submissions handed to the bank-validation actor (Pix directory lookup or the
account-ownership check).

The banking-data request (models/services/banking/submission.py) writes one row and waits briefly
for the actor's verdict; whichever side flips ``state`` first wins (actor PENDING -> DONE, request
PENDING -> ABANDONED on timeout, a newer submission PENDING -> SUPERSEDED), so a verdict that
arrives after the request gave up, or after newer data was sent, never changes the proposal.
"""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, UtcDateTimeField
from models.db.proposals import Proposal, new_id
from models.domain.clock import now


class BankDataSubmission(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    proposal = peewee.ForeignKeyField(Proposal, backref="bank_submissions", on_delete="CASCADE")
    payload = JsonField()  # normalised request (never more than the route accepted)
    state = peewee.CharField(max_length=16, default="PENDING")  # PENDING | DONE | ABANDONED | SUPERSEDED
    # Verdict: the HTTP answer the route gives (200 ok true/false, or an error status and code).
    http_status = peewee.IntegerField(null=True)
    ok = peewee.BooleanField(null=True)
    result_status = peewee.CharField(max_length=32, null=True)
    error_code = peewee.CharField(max_length=64, null=True)
    message = peewee.TextField(null=True)
    created_at = UtcDateTimeField(default=now)
    finished_at = UtcDateTimeField(null=True)

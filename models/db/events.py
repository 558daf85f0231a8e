"""The events feed: one row per announced status change, numbered per origin once visible."""

import peewee

from models.db.database import BaseModel
from models.db.fields import UtcDateTimeField
from models.db.proposals import StatusChange


class StatusEvent(BaseModel):
    id = peewee.AutoField()
    status_change = peewee.ForeignKeyField(StatusChange, unique=True, on_delete="CASCADE")
    origin = peewee.CharField(max_length=64)  # the proposal's origin: the only reader
    # The origin's feed order (1, 2, 3...), given after commit by events.feed.number_events, so a
    # reader never sees a later number before an earlier one; null until then.
    position = peewee.BigIntegerField(null=True, index=True)
    created_at = UtcDateTimeField(index=True)  # when it was recorded; retention counts from it

    class Meta:
        indexes = ((("origin", "position"), True),)

"""The hybrid wait on one row of a proposal's work (an analysis, a simulation): the row re-read whole
on every wake of its proposal until it leaves its pending state, answered as the last poll read it
(so the answer costs no read of its own)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import peewee

from models.services.platform.proposal_status import wake_key
from models.services.platform.wakeups import wakeups

Row = TypeVar("Row", bound=peewee.Model)


def await_row(row: Row, pending: Callable[[Row], bool], timeout: float) -> Row:
    """``row`` once ``pending`` no longer holds for it, or as it stands after ``timeout`` seconds;
    woken by its proposal's key (``row.proposal_id``). A row removed meanwhile raises DoesNotExist."""
    model, row_id = type(row), row.id
    latest, _ = wakeups.poll_until(
        lambda: model.get_or_none(model.id == row_id),
        lambda read: read is None or not pending(read),
        timeout,
        keys=(wake_key(str(row.proposal_id)),),
    )
    return latest if latest is not None else model.get_by_id(row_id)

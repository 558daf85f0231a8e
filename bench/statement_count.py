"""The SQL statements this process sends, counted through peewee's query log (a bench helper)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager


class StatementCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextmanager
def counting_statements() -> Iterator[StatementCount]:
    """Count every statement peewee logs inside the block (``.count``)."""
    counter = StatementCount()
    peewee_log = logging.getLogger("peewee")
    level, propagate = peewee_log.level, peewee_log.propagate
    peewee_log.addHandler(counter)
    peewee_log.setLevel(logging.DEBUG)
    peewee_log.propagate = False  # counted, not formatted by the service's handler
    try:
        yield counter
    finally:
        peewee_log.removeHandler(counter)
        peewee_log.setLevel(level)
        peewee_log.propagate = propagate

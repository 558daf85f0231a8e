"""A dependency away during a request (the database, the broker) is a 503 the caller retries, not a 500.

The API's error handler (``http/api.py``) asks :func:`is_unavailable` about every unexpected exception.
Errors that say the dependency cannot be reached or cannot take the request now count; errors
that say the request or the code is wrong (a syntax error, a missing table, a constraint) do not,
so they stay 500s and are logged with their traceback.

Every 503 carries ``Retry-After`` (setting ``unavailable_retry_after_seconds``): the partner's
guide says to retry 5xx with backoff, and the header tells it when. (The classification lives
here, beside the database, because only services may know peewee and the drivers.)
"""

from __future__ import annotations

import sqlite3

import peewee
from playhouse.pool import MaxConnectionsExceeded

ERROR_CODE = "SERVICE_UNAVAILABLE"
MESSAGE = "The service is temporarily unavailable; retry after the number of seconds in Retry-After"

# SQLite raises OperationalError for programming errors too ("no such table", a syntax error); only
# these messages mean the file cannot be used right now.
_SQLITE_UNAVAILABLE = (
    "database is locked",
    "database table is locked",
    "unable to open database file",
    "disk i/o error",
    "database or disk is full",
)


def _driver_error(error: BaseException) -> BaseException:
    """The driver's exception peewee wrapped (``orig``), or ``error`` itself."""
    original = getattr(error, "orig", None)
    return original if isinstance(original, BaseException) else error


def _database_unavailable(error: BaseException) -> bool:
    if isinstance(error, MaxConnectionsExceeded):  # every pooled connection of the process in use
        return True
    if not isinstance(error, peewee.OperationalError | peewee.InterfaceError):
        return isinstance(error, _psycopg2_unavailable())
    driver = _driver_error(error)
    if isinstance(driver, sqlite3.Error):
        text = str(driver).lower()
        return any(message in text for message in _SQLITE_UNAVAILABLE)
    # PostgreSQL: OperationalError is the connection (refused, reset, server shutting down), a lock
    # or statement timeout, a cancelled query; InterfaceError is a connection already closed.
    return True


def _psycopg2_unavailable() -> tuple[type[BaseException], ...]:
    """psycopg2's own classes, for code that uses the driver directly (the LISTEN connection)."""
    try:
        import psycopg2
    except ImportError:  # a SQLite-only install
        return ()
    return (psycopg2.OperationalError, psycopg2.InterfaceError)


def _broker_unavailable(error: BaseException) -> bool:
    """A synchronous publish that could not reach RabbitMQ."""
    import dramatiq.errors

    if isinstance(error, dramatiq.errors.BrokerConnectionError):
        return True
    try:
        import pika.exceptions
    except ImportError:
        return False
    return isinstance(error, pika.exceptions.AMQPConnectionError)  # refused, reset, lost stream


def is_unavailable(error: BaseException) -> bool:
    """Whether ``error`` (or the error it was raised from) means a dependency is away for now."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if _database_unavailable(current) or _broker_unavailable(current):
            return True
        seen.add(id(current))
        # The error it was raised from, or while handling ("raise ... from None" hides that one).
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    return False

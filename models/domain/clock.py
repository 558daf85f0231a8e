"""Time helpers: one place that reads the clock and formats instants.

Everything is stored and compared in aware UTC; local time (America/Sao_Paulo)
is only used where a business rule is phrased in local wall-clock terms.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

SAO_PAULO = ZoneInfo("America/Sao_Paulo")


def now() -> datetime:
    """Return the current instant as an aware UTC datetime.

    ``datetime.now(timezone.utc)`` is used (not ``utcnow``) so that freezegun
    controls it in tests and the value is never naive.
    """
    return datetime.now(timezone.utc)


def local_now() -> datetime:
    """Return the current instant in São Paulo local time."""
    return now().astimezone(SAO_PAULO)


def to_local(dt: datetime) -> datetime:
    """Convert an aware datetime to São Paulo time; naive input is taken as UTC."""
    return ensure_aware(dt).astimezone(SAO_PAULO)


def to_utc(dt: datetime) -> datetime:
    """Convert an aware datetime to UTC; naive input is taken as UTC."""
    return ensure_aware(dt).astimezone(timezone.utc)


def ensure_aware(dt: datetime) -> datetime:
    """Attach UTC to a naive datetime (databases often drop the offset)."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=timezone.utc)


def isoformat_z(dt: datetime) -> str:
    """Format an instant as ``YYYY-MM-DDTHH:MM:SS.sssZ`` (UTC, milliseconds)."""
    # isoformat is C code: 4 us a call against strftime's 7, and every body and event prints several.
    return to_utc(dt).replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


def parse_instant(value: str) -> datetime:
    """The instant ``isoformat_z`` wrote (any ISO 8601 form; naive is UTC), as an aware UTC datetime."""
    return to_utc(datetime.fromisoformat(value))

"""The events feed's rules (README, "Events feed"): the opaque cursor, the page size and how long
an event is listed.

Each origin's events are numbered 1, 2, 3... in the order they became visible (its feed
``position``); a cursor is the position of the last event read, written so that clients treat it
as opaque and never do arithmetic on it.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime, timedelta

DEFAULT_LIMIT = 100
MAX_LIMIT = 500
CURSOR_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
_PREFIX = "p:"
_POSITION = re.compile(r"p:(0|[1-9][0-9]{0,17})")


class InvalidCursor(ValueError):
    """The text is not a cursor this service handed out."""


def encode_cursor(position: int) -> str:
    return base64.urlsafe_b64encode(f"{_PREFIX}{position}".encode("ascii")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> int:
    """The position a cursor names. Only the exact text ``encode_cursor`` produces is accepted
    (no padding variants, no other alphabet), so one position has one cursor."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError) as error:
        raise InvalidCursor(cursor) from error
    match = _POSITION.fullmatch(text)
    if match is None or encode_cursor(int(match.group(1))) != cursor:
        raise InvalidCursor(cursor)
    return int(match.group(1))


def listed_since(at: datetime, retention_days: int) -> datetime:
    """Events recorded at or before this instant are no longer listed (kept ``retention_days``)."""
    return at - timedelta(days=retention_days)

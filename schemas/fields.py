"""The wire formats of the API as the service writes them, one field type each: every response
schema formats through these. How request values are read (the same formats, strictly) is the
other half of the edge, ``schemas/edge.py``; the format patterns below are shared by both.

* ``Instant``: ``YYYY-MM-DDTHH:mm:ss.sssZ`` (UTC, milliseconds), the spec's instant format.
* ``Day``: ``YYYY-MM-DD``.
* ``Money``: a JSON number (the spec's "number" amounts); amounts are already rounded to the cent.
* ``DecimalText``: decimal text with two places, rounded half up to the cent (the spec's "string
  (decimal)" fields: contract data amounts, ``available_margin`` of the analysis).

Services hand over datetimes, dates and Decimals; only these fields turn them into text. A value
that is already wire text (offer payloads store their instants formatted) passes when it has the
field's exact format, and anything else is refused, so a stray format cannot reach the wire.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal

from marshmallow import fields

from models.domain.clock import isoformat_z
from models.domain.money import to_cents

# ASCII digit classes: JSON Schema reads ``\d`` as ASCII, Python as any Unicode digit.
INSTANT_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$"
DAY_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
DECIMAL_TEXT_PATTERN = r"^-?[0-9]+\.[0-9]{2}$"
UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
UUID_EXAMPLE = "0b9d3c7e-8a51-4c3f-9a0e-2f4f1c6d7e8a"
_INSTANT = re.compile(INSTANT_PATTERN)
_DAY = re.compile(DAY_PATTERN)


def documented(metadata: dict | None, defaults: dict) -> dict:
    """A field's OpenAPI metadata: its type's ``defaults`` (pattern, example...), then the caller's."""
    return {**defaults, **(metadata or {})}


class Instant(fields.DateTime):
    """An instant as ``YYYY-MM-DDTHH:mm:ss.sssZ`` (a naive datetime is taken as UTC)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        defaults = {"example": "2026-05-11T13:45:00.000Z", "pattern": INSTANT_PATTERN}
        super().__init__(metadata=documented(metadata, defaults), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if isinstance(value, str) and _INSTANT.fullmatch(value):
            return value
        if not isinstance(value, datetime):
            raise ValueError(f"{attr}: {value!r} is not an instant")
        return isoformat_z(value)


class Day(fields.Date):
    """A calendar day as ``YYYY-MM-DD``."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        super().__init__(metadata=documented(metadata, {"example": "2026-05-11"}), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if isinstance(value, str) and _DAY.fullmatch(value):
            return value
        if isinstance(value, datetime) or not isinstance(value, date):
            raise ValueError(f"{attr}: {value!r} is not a calendar day")
        return value.isoformat()


class Money(fields.Float):
    """An amount in reais as a JSON number (already rounded to the cent by the domain)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        super().__init__(metadata=documented(metadata, {"example": 1500.0}), **kwargs)


class DecimalText(fields.String):
    """Decimal text with two places, rounded half up (``"1.79"``, ``"18609.36"``)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        defaults = {"example": "1500.00", "pattern": DECIMAL_TEXT_PATTERN}
        super().__init__(metadata=documented(metadata, defaults), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if isinstance(value, float):  # a stored JSON number: its shortest repr is its decimal
            value = repr(value)
        return str(to_cents(Decimal(value)))


class Uuid(fields.UUID):
    """An identifier: a UUID in its canonical text form."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        super().__init__(metadata=documented(metadata, {"example": UUID_EXAMPLE}), **kwargs)

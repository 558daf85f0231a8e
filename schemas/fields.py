"""The wire formats of the API, one field type each: every response schema formats through these.

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

from marshmallow import ValidationError, fields, validate

from models.domain.clock import isoformat_z
from models.domain.money import to_cents

INSTANT_PATTERN = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"
DAY_PATTERN = r"^\d{4}-\d{2}-\d{2}$"
DECIMAL_TEXT_PATTERN = r"^-?\d+\.\d{2}$"
_INSTANT = re.compile(INSTANT_PATTERN)
_DAY = re.compile(DAY_PATTERN)


def _merged(metadata: dict | None, defaults: dict) -> dict:
    return {**defaults, **(metadata or {})}


class Instant(fields.DateTime):
    """An instant as ``YYYY-MM-DDTHH:mm:ss.sssZ`` (a naive datetime is taken as UTC)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        defaults = {"example": "2026-05-11T13:45:00.000Z", "pattern": INSTANT_PATTERN}
        super().__init__(metadata=_merged(metadata, defaults), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if isinstance(value, str) and _INSTANT.match(value):
            return value
        if not isinstance(value, datetime):
            raise ValueError(f"{attr}: {value!r} is not an instant")
        return isoformat_z(value)


class Day(fields.Date):
    """A calendar day as ``YYYY-MM-DD``."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        super().__init__(metadata=_merged(metadata, {"example": "2026-05-11"}), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if isinstance(value, str) and _DAY.match(value):
            return value
        if isinstance(value, datetime) or not isinstance(value, date):
            raise ValueError(f"{attr}: {value!r} is not a calendar day")
        return value.isoformat()


class Money(fields.Float):
    """An amount in reais as a JSON number (already rounded to the cent by the domain)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        super().__init__(metadata=_merged(metadata, {"example": 1500.0}), **kwargs)


class DecimalText(fields.String):
    """Decimal text with two places, rounded half up (``"1.79"``, ``"18609.36"``)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        defaults = {"example": "1500.00", "pattern": DECIMAL_TEXT_PATTERN}
        super().__init__(metadata=_merged(metadata, defaults), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if isinstance(value, float):  # a stored JSON number: its shortest repr is its decimal
            value = repr(value)
        return str(to_cents(Decimal(value)))


class Uuid(fields.UUID):
    """An identifier: a UUID in its canonical text form."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        super().__init__(metadata=_merged(metadata, {"example": "0b9d3c7e-8a51-4c3f-9a0e-2f4f1c6d7e8a"}), **kwargs)


# Request fields: JSON types are taken as declared. marshmallow would read "1.5" as a number and
# "yes" or 1 as true, which the document does not allow; a client sending them is refused (400).


class JsonNumber(fields.Float):
    """A JSON number (not a numeric string), read as a float."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class JsonDecimal(fields.Decimal):
    """A JSON number (not a numeric string), read as an exact Decimal."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return super()._deserialize(repr(value) if isinstance(value, float) else value, attr, data, **kwargs)


class JsonBoolean(fields.Boolean):
    """A JSON true or false (not "yes", 1 or "true")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class JsonDay(fields.Date):
    """A calendar day written exactly ``YYYY-MM-DD`` (not the other forms ISO 8601 allows)."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        defaults = {"pattern": DAY_PATTERN, "example": "2026-05-11"}
        super().__init__(metadata=_merged(metadata, defaults), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not _DAY.match(value):
            raise self.make_error("invalid", input=value, obj_type=self.OBJ_TYPE)
        return super()._deserialize(value, attr, data, **kwargs)


UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_UUID = re.compile(UUID_PATTERN)


class JsonUuid(fields.String):
    """A UUID in its canonical 8-4-4-4-12 text form, read as lower-case text."""

    def __init__(self, *, metadata: dict | None = None, **kwargs) -> None:
        defaults = {"format": "uuid", "pattern": UUID_PATTERN, "example": "0b9d3c7e-8a51-4c3f-9a0e-2f4f1c6d7e8a"}
        super().__init__(metadata=_merged(metadata, defaults), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not _UUID.match(text):
            raise ValidationError("Not a valid UUID.")
        return text.lower()


class Pattern(validate.Regexp):
    """A Regexp read as JSON Schema reads the documented ``pattern``: ``[0-9]``-style ASCII classes
    and ``$`` at the very end (Python's ``$`` would also accept a trailing newline)."""

    def __init__(self, regex: str, *, error: str | None = None) -> None:
        super().__init__(regex, flags=re.ASCII, error=error)

    def __call__(self, value):
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value

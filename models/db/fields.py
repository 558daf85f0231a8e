"""Column types shared by every table: UTC timestamps, JSON documents, money."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal

import peewee


class UtcDateTimeField(peewee.DateTimeField):
    """Stores naive UTC on every backend and hands back aware UTC datetimes."""

    def db_value(self, value):
        if isinstance(value, datetime) and value.tzinfo is not None:
            value = value.astimezone(timezone.utc).replace(tzinfo=None)
        return super().db_value(value)

    def python_value(self, value):
        value = super().python_value(value)
        if isinstance(value, datetime) and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value


def _json_default(value):
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


class JsonField(peewee.TextField):
    """A JSON document kept as text, portable across SQLite and PostgreSQL."""

    def db_value(self, value):
        return None if value is None else json.dumps(value, default=_json_default, sort_keys=True)

    def python_value(self, value):
        return None if value is None else json.loads(value)


def MoneyField(**kwargs) -> peewee.DecimalField:
    """Reais to the cent."""
    kwargs.setdefault("max_digits", 14)
    kwargs.setdefault("decimal_places", 2)
    kwargs.setdefault("auto_round", True)
    return peewee.DecimalField(**kwargs)

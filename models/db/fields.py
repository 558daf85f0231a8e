"""Column types shared by every table: UTC timestamps, JSON documents, money."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
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


class EncodedJson:
    """A JSON column's text as read, decoded when its attribute is first read (JsonField)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_reading = threading.local()


@contextmanager
def json_decoded_on_access() -> Iterator[None]:
    """Rows read in this block (model instances only) keep their JSON columns as text until the
    attribute is read: a contract's printed terms or an offer's document, read with its row by a
    lookup that only wanted its status, cost a json.loads each (13 % of the money pool's CPU)."""
    outer = getattr(_reading, "lazy", False)
    _reading.lazy = True
    try:
        yield
    finally:
        _reading.lazy = outer


class _JsonAccessor(peewee.FieldAccessor):
    def __get__(self, instance, instance_type=None):
        if instance is None:
            return self.field
        value = instance.__data__.get(self.name)
        if type(value) is EncodedJson:
            value = instance.__data__[self.name] = json.loads(value.text)  # not a change: not dirty
        return value


class JsonField(peewee.TextField):
    """A JSON document kept as text, portable across SQLite and PostgreSQL."""

    accessor_class = _JsonAccessor

    def db_value(self, value):
        if type(value) is EncodedJson:  # read and never looked at: written back as it was
            return value.text
        return None if value is None else json.dumps(value, default=_json_default, sort_keys=True)

    def python_value(self, value):
        if value is None:
            return None
        if getattr(_reading, "lazy", False):
            return EncodedJson(value)
        return json.loads(value)


def MoneyField(**kwargs) -> peewee.DecimalField:
    """Reais to the cent."""
    kwargs.setdefault("max_digits", 14)
    kwargs.setdefault("decimal_places", 2)
    kwargs.setdefault("auto_round", True)
    return peewee.DecimalField(**kwargs)

"""A table created by an earlier release gets the columns a later release declares."""

import peewee
import pytest

from models.db.database import db
from models.db.fields import UtcDateTimeField
from models.db.migrations import add_missing_columns, missing_columns


class _Old(peewee.Model):
    name = peewee.CharField()

    class Meta:
        database = db
        table_name = "migration_probe"


class _New(peewee.Model):
    name = peewee.CharField()
    parked_at = UtcDateTimeField(null=True)
    attempts = peewee.IntegerField(default=0)

    class Meta:
        database = db
        table_name = "migration_probe"


class _NewRequired(peewee.Model):
    name = peewee.CharField()
    owner = peewee.CharField()

    class Meta:
        database = db
        table_name = "migration_probe"


@pytest.fixture
def old_table():
    db.create_tables([_Old])
    _Old.create(name="written by the earlier release")
    yield
    db.drop_tables([_Old])


def test_missing_nullable_and_defaulted_columns_are_added_and_old_rows_kept(old_table):
    assert [field.name for field in missing_columns(db.obj, _New)] == ["parked_at", "attempts"]
    assert add_missing_columns(db.obj, [_New]) == ["migration_probe.parked_at", "migration_probe.attempts"]
    row = _New.get()
    assert (row.name, row.parked_at, row.attempts) == ("written by the earlier release", None, 0)
    assert add_missing_columns(db.obj, [_New]) == []  # idempotent


def test_a_required_column_without_default_is_refused(old_table):
    with pytest.raises(RuntimeError, match=r"migration_probe\.owner"):
        add_missing_columns(db.obj, [_NewRequired])

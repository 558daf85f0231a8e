"""Columns added to a table after it was first created, applied at start-up.

``create_tables(safe=True)`` creates missing tables but never touches an existing one, so a
database created by an earlier release would lack a column a later release declares (the
outbox's ``parked_at``, say). At start-up, under the schema lock, every column a model declares
and its table lacks is added. A new column must therefore be nullable or carry a default; renames,
type changes and removals are not handled here and need a written migration.
"""

from __future__ import annotations

import logging

import peewee
from playhouse.migrate import SchemaMigrator, migrate

log = logging.getLogger(__name__)


def missing_columns(database: peewee.Database, model: type[peewee.Model]) -> list[peewee.Field]:
    """Fields of ``model`` whose column its table does not have (the table must exist)."""
    present = {column.name for column in database.get_columns(model._meta.table_name)}
    return [field for field in model._meta.sorted_fields if field.column_name not in present]


def add_missing_columns(database: peewee.Database, models: list[type[peewee.Model]]) -> list[str]:
    """Add every declared column the tables lack; returns ``table.column`` for each one added."""
    migrator = SchemaMigrator.from_database(database)
    added = []
    for model in models:
        for field in missing_columns(database, model):
            if not field.null and field.default is None:
                raise RuntimeError(
                    f"{model._meta.table_name}.{field.column_name} is missing and is neither "
                    "nullable nor defaulted: write a migration for it"
                )
            migrate(migrator.add_column(model._meta.table_name, field.column_name, field))
            added.append(f"{model._meta.table_name}.{field.column_name}")
            log.warning("schema: added column %s.%s", model._meta.table_name, field.column_name)
    return added

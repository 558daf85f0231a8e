"""Which schema the database holds: one row with the fingerprint of the DDL that created it.

Why: every process (each gunicorn worker, each pool process) runs ``create_schema`` at start-up.
``CREATE INDEX IF NOT EXISTS`` takes a SHARE lock on its table even when the index exists, so a
pool restarted under live traffic queued behind the writers, and the writers behind it (a
deadlock when a writer then needed a table the start-up transaction already held). Now start-up
reads this row first and runs no DDL at all when the fingerprint matches the code's.

The fingerprint hashes the SQL the code would run: every table's CREATE TABLE and CREATE INDEX as
peewee renders them for this database, plus the PostgreSQL-only indexes and counters. A release
that adds a table, a column or an index changes it, and its first process applies the DDL. An
index or column removed by hand is not noticed: delete the row (``DELETE FROM schema_version``)
and restart one process to have the schema re-applied.
"""

from __future__ import annotations

import hashlib

import peewee

from models.db.database import BaseModel, db, is_postgres
from models.db.fields import UtcDateTimeField
from models.domain.clock import now

ROW_ID = 1


class SchemaVersion(BaseModel):
    id = peewee.IntegerField(primary_key=True)
    fingerprint = peewee.CharField(max_length=64)
    applied_at = UtcDateTimeField()


def _rendered(node) -> str:
    sql, params = db.obj.get_sql_context().sql(node).query()
    return f"{sql} {params!r}"


def code_fingerprint(models: list[type[peewee.Model]]) -> str:
    """sha256 of the DDL ``create_schema`` would run for ``models`` on this database."""
    from models.db.indexes import declared_indexes

    parts = []
    for model in [*models, SchemaVersion]:
        parts.append(_rendered(model._schema._create_table(safe=True)))
        parts.extend(_rendered(index) for index in declared_indexes(model))
    if is_postgres():
        from models.db.indexes import BTREE_INDEXES, SUPERSEDED_ON_POSTGRES, TRIGRAM_COLUMNS
        from models.db.proposal_counts import DDL

        parts += [repr(sorted(BTREE_INDEXES.items())), repr(sorted(SUPERSEDED_ON_POSTGRES)), repr(TRIGRAM_COLUMNS), DDL]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def applied_fingerprint() -> str | None:
    """The fingerprint recorded by the last start-up that applied the schema (None: never, or a
    database from before this table). A catalog lookup and a one-row read: no lock on other tables."""
    if not db.table_exists(SchemaVersion._meta.table_name):
        return None
    row = SchemaVersion.get_or_none(SchemaVersion.id == ROW_ID)
    return row.fingerprint if row else None


def record_fingerprint(fingerprint: str) -> None:
    """Store ``fingerprint`` as applied (inside the start-up transaction that applied it)."""
    (
        SchemaVersion.insert(id=ROW_ID, fingerprint=fingerprint, applied_at=now())
        .on_conflict(
            conflict_target=[SchemaVersion.id],
            update={SchemaVersion.fingerprint: fingerprint, SchemaVersion.applied_at: now()},
        )
        .execute()
    )

"""The read-side PostgreSQL indexes exist after create_schema (PostgreSQL backend only)."""

import pytest

from models.db.database import db, is_postgres
from models.db.indexes import BTREE_INDEXES, TRIGRAM_COLUMNS


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("PostgreSQL-only indexes; this run uses SQLite")


def test_trigram_and_sort_indexes_exist(postgres):
    names = {row[0] for row in db.execute_sql("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")}
    expected = set(BTREE_INDEXES) | {f"proposal_{column}_trgm" for column in TRIGRAM_COLUMNS}
    assert expected <= names


def test_partial_match_indexes_are_trigram_gin(postgres):
    # (Plans on an empty table say nothing; bench/queries.py checks them on 400,000 rows.)
    rows = db.execute_sql("SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE %s", ("proposal_%_trgm",))
    definitions = dict(rows.fetchall())
    for column in TRIGRAM_COLUMNS:
        assert f"USING gin ({column} gin_trgm_ops)" in definitions[f"proposal_{column}_trgm"]

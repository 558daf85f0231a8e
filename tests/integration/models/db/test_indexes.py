"""The read-side PostgreSQL indexes exist after create_schema, and the declared ones they supersede do not."""

import pytest

from models.db.database import create_schema, db, is_postgres
from models.db.indexes import BTREE_INDEXES, SUPERSEDED_ON_POSTGRES, TRIGRAM_COLUMNS
from models.db.proposals import Proposal
from models.db.schema_version import applied_fingerprint, code_fingerprint
from models.db.tables import ALL_TABLES


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


def _proposal_index_names() -> set[str]:
    if is_postgres():
        rows = db.execute_sql("SELECT indexname FROM pg_indexes WHERE tablename = 'proposal'")
    else:
        rows = db.execute_sql("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'proposal'")
    return {row[0] for row in rows}


def _declared_columns(name: str) -> tuple[str, ...]:
    (index,) = [index for index in Proposal._meta.fields_to_index() if index._name == name]
    return tuple(field.column_name for field in index._expressions)


def test_superseded_indexes_are_left_to_the_read_side_ones(postgres):
    names = _proposal_index_names()
    for superseded, replacement in SUPERSEDED_ON_POSTGRES.items():
        assert superseded not in names
        assert replacement in names
        # The replacement's leading columns are the superseded index's, so it serves its lookups.
        leading = BTREE_INDEXES[replacement].strip("()").split(")")[0].replace("(", "")
        columns = tuple(column.strip() for column in leading.split(","))
        assert columns[: len(_declared_columns(superseded))] == _declared_columns(superseded)


def test_a_database_holding_superseded_indexes_loses_them_at_the_next_schema_change(postgres):
    db.execute_sql("CREATE INDEX IF NOT EXISTS proposal_origin_status ON proposal (origin, status)")
    db.execute_sql("DELETE FROM schema_version")  # as a release with a new fingerprint would find it
    create_schema()
    assert "proposal_origin_status" not in _proposal_index_names()
    assert applied_fingerprint() == code_fingerprint(ALL_TABLES)


def test_sqlite_keeps_the_declared_indexes(app):
    if is_postgres():
        pytest.skip("SQLite keeps them; this run uses PostgreSQL")
    assert set(SUPERSEDED_ON_POSTGRES) <= _proposal_index_names()

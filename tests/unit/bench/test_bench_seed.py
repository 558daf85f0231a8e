"""The read-side seed (bench/bench_seed.py, COPY) names or defaults every NOT NULL column: a column
added to a model later must not break ``make bench-api`` and ``bench.queries --reseed``."""

import peewee
import pytest

from bench import bench_seed
from models.db.proposals import Proposal


def _needed_without_default(model: type[peewee.Model]) -> list[str]:
    return [
        field.column_name
        for field in model._meta.sorted_fields
        if not field.null and field.default is None and not isinstance(field, peewee.AutoField)
    ]


@pytest.mark.parametrize("model", list(bench_seed.COPIED_COLUMNS), ids=lambda model: model.__name__)
def test_every_not_null_column_without_a_default_is_seeded(model):
    named = bench_seed.COPIED_COLUMNS[model]
    assert [column for column in _needed_without_default(model) if column not in named] == []
    assert all(column in model._meta.columns for column in named)


def test_a_not_null_column_left_out_gets_the_models_default_in_copy_text():
    defaults = bench_seed._defaults_left_out(Proposal, bench_seed.COPIED_COLUMNS[Proposal])
    assert defaults["clock_offset_seconds"]() == 0
    assert "status_sequence" not in defaults and "cpf" not in defaults
    assert [bench_seed._copy_text(value) for value in (None, True, False, 0, "x")] == ["\\N", "t", "f", "0", "x"]

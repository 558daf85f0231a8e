"""Local-day bounds of the date filters (no database)."""

from datetime import date, datetime, timezone

import pytest

from models.domain.errors import ValidationFailed
from models.services.queries.params import day_range, local_day_start, parse_sort, parse_statuses, valid_cpf


def test_a_sao_paulo_day_starts_at_03_utc():
    assert local_day_start(date(2026, 5, 10)) == datetime(2026, 5, 10, 3, tzinfo=timezone.utc)


def test_inclusive_days_become_a_half_open_utc_range():
    start, end = day_range(date(2026, 5, 10), date(2026, 5, 10), field="created")
    assert (start, end) == (
        datetime(2026, 5, 10, 3, tzinfo=timezone.utc),
        datetime(2026, 5, 11, 3, tzinfo=timezone.utc),
    )


def test_open_ends_stay_open():
    assert day_range(None, None, field="updated") == (None, None)


def test_statuses_are_normalised_and_deduplicated():
    assert parse_statuses(" signed,SIGNED ,disbursed,") == ["SIGNED", "DISBURSED"]


def test_report_only_statuses_are_still_valid_filters():
    assert parse_statuses("PIX_KEY_NOT_CONFIRMED") == ["PIX_KEY_NOT_CONFIRMED"]


def test_sort_default():
    assert parse_sort(None) == ("created_at", "desc")


@pytest.mark.parametrize("value", ["full_name", "created_at:DESC", "id:asc"])
def test_sort_outside_the_list_is_refused(value):
    with pytest.raises(ValidationFailed) as raised:
        parse_sort(value)
    assert raised.value.http_status == 400 and raised.value.details["field"] == "sort"


def test_cpf_with_mask_is_refused():
    with pytest.raises(ValidationFailed):
        valid_cpf("529.982.247-25")

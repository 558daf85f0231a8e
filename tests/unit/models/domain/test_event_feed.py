"""The events feed's cursor and retention edge."""

import re
from datetime import datetime, timedelta, timezone

import pytest

from models.domain.event_feed import CURSOR_PATTERN, InvalidCursor, decode_cursor, encode_cursor, listed_since


@pytest.mark.parametrize("position", [0, 1, 99, 10**17])
def test_a_cursor_names_its_position_and_matches_the_documented_pattern(position):
    cursor = encode_cursor(position)
    assert decode_cursor(cursor) == position
    assert re.fullmatch(CURSOR_PATTERN, cursor)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "abc",
        "cDox==",  # padding: the cursor is written without it
        encode_cursor(5) + "A",
        "cDowMQ",  # "p:01": a leading zero is not how a position is written
        "cDotMQ",  # "p:-1"
        "eDox",  # "x:1"
        "_____w",
    ],
)
def test_anything_but_a_cursor_the_feed_wrote_is_refused(text):
    with pytest.raises(InvalidCursor):
        decode_cursor(text)


def test_events_are_listed_for_retention_days_after_the_change():
    at = datetime(2026, 3, 10, 13, 0, tzinfo=timezone.utc)
    assert listed_since(at, 30) == at - timedelta(days=30)

"""The re-drive windows of runs without an outcome (models/domain/stalled_runs.py)."""

from datetime import datetime, timedelta, timezone

from models.domain import stalled_runs

AT = datetime(2026, 5, 11, 15, 0, tzinfo=timezone.utc)


def test_a_run_is_stalled_once_it_has_waited_the_whole_redrive_time():
    assert stalled_runs.stalled_before(AT, 120) == AT - timedelta(seconds=120)


def test_every_instant_of_a_window_shares_its_number_and_the_next_window_does_not():
    start = datetime.fromtimestamp((int(AT.timestamp()) // 120) * 120, timezone.utc)
    window = stalled_runs.redrive_window(start, 120)
    assert stalled_runs.redrive_window(start + timedelta(seconds=119.999), 120) == window
    assert stalled_runs.redrive_window(start + timedelta(seconds=120), 120) == window + 1
    assert stalled_runs.redrive_window(start - timedelta(microseconds=1), 120) == window - 1

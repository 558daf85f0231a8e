"""When a run whose message may have been lost is driven again: the rule of the re-drives the
lifecycle sweep makes without changing a status (a credit analysis still in progress).

An actor's retries are bounded (a few seconds of backoff): an outage of the database or the broker
that outlasts them dead-letters the message, and the work it carried would wait for the status's
timeout. Once a run has had ``redrive_seconds`` without an outcome (longer than a healthy run takes
with its providers' timeouts and retries), its message is sent again, at most once per window of
``redrive_seconds``: the run is idempotent (its outcome is written only once), so a duplicate of a
run that was only slow costs one extra call to the providers, never a second outcome.
"""

from __future__ import annotations

from datetime import datetime, timedelta


def stalled_before(at: datetime, redrive_seconds: float) -> datetime:
    """Runs started (or last driven) at or before this instant and still without an outcome are
    driven again."""
    return at - timedelta(seconds=redrive_seconds)


def redrive_window(at: datetime, redrive_seconds: float) -> int:
    """The number of the window ``at`` falls in: one re-drive per run and window, however many
    sweeps (or processes) pass in it."""
    return int(at.timestamp() // redrive_seconds)

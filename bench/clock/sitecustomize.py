"""Shifted service clock for benchmarks and demos in the sandbox (never production).

Loaded by Python at start-up when this folder is on PYTHONPATH and SANDBOX_CLOCK_START is set
(ISO 8601, e.g. 2026-11-24T13:00:00Z): models.domain.clock.now(), the service's only clock, then
starts at that instant and runs at normal speed. The payroll system's monthly maintenance window
(20th 22:00 to 23rd 06:00, São Paulo) refuses every credit analysis, so a full flow measured inside
it never reaches DISBURSED; bench.full_flow uses this to run on an ordinary business morning.
Every process started with the variable (gunicorn workers, dramatiq pool processes) shares the
same shift, taken from the same start instant and the real clock at process start.
"""
import os

_start = os.environ.get("SANDBOX_CLOCK_START")
if _start and os.environ.get("APP_ENV", "sandbox") in ("sandbox", "test"):
    import sys
    from datetime import datetime as _datetime, timezone as _timezone

    # gunicorn and dramatiq put their script's folder first on sys.path, not the project root.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    import models.domain.clock as _clock

    _target = _datetime.fromisoformat(_start.replace("Z", "+00:00"))
    _epoch = float(os.environ.get("SANDBOX_CLOCK_EPOCH") or _datetime.now(_timezone.utc).timestamp())
    _offset = _target - _datetime.fromtimestamp(_epoch, _timezone.utc)

    class _ShiftedDatetime(_datetime):
        @classmethod
        def now(cls, tz=None):
            return _datetime.now(tz) + _offset

    _clock.datetime = _ShiftedDatetime

"""Captures log lines exactly as production writes them: JsonFormatter, formatted in the emitting
thread (worker threads included), so context-bound fields such as request_id are what they were."""

from __future__ import annotations

import json
import logging
import threading
from contextlib import contextmanager

from models.services.platform.logs import JsonFormatter


class JsonLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.formatter_ = JsonFormatter()
        self.lines: list[str] = []
        self._lock_lines = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        line = self.formatter_.format(record)
        with self._lock_lines:
            self.lines.append(line)

    def entries(self) -> list[dict]:
        with self._lock_lines:
            return [json.loads(line) for line in self.lines]


@contextmanager
def captured_logs(level: int = logging.INFO):
    """Every line logged (any logger, any thread) while the block runs."""
    handler = JsonLines()
    root = logging.getLogger()
    previous = root.level
    root.addHandler(handler)
    root.setLevel(min(previous, level) if previous else level)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)

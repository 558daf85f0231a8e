"""Structured JSON logs carrying the request id, with personal data and secrets masked."""
from __future__ import annotations

import json
import logging
import re
import sys

from models.services.request_context import current_request_id

# CPF (11 digits, masked or not), bearer tokens/JWTs, and secrets in key=value form.
_PATTERNS = [
    (re.compile(r"\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b"), "***CPF***"),
    (re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]*"), "***JWT***"),
    (re.compile(r"(?i)(bearer\s+)[\w.\-~+/=]+"), r"\1***"),
    (re.compile(r"(?i)\b(client_secret|secret|password|token|api[_-]?key|account|bank_account|pix_key)"
                r"([\"']?\s*[:=]\s*[\"']?)([^\s,\"'&}]+)"), r"\1\2***"),
]


def redact(text: str) -> str:
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"), "level": record.levelname,
                 "logger": record.name, "message": redact(record.getMessage())}
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            entry["request_id"] = request_id
        for key in ("proposal_id", "actor", "queue", "route", "status", "duration_ms"):
            value = getattr(record, key, None)
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str = "INFO") -> None:
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("pika").setLevel(logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)

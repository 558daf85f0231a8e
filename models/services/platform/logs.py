"""Structured JSON logs carrying the request id, with personal data and secrets masked."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys

from models.services.platform.request_context import current_request_id

# CPF (11 digits, masked or not), bearer/basic credentials and JWTs, and secrets in key=value or
# JSON form: any key that contains secret, password, token, api key, account, pix key, auth value
# or authorization (client_secret, access_token, bank_account_digit, x-api-key...).
_PATTERNS = [
    (re.compile(r"\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b"), "***CPF***"),
    (re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]*"), "***JWT***"),
    (re.compile(r"(?i)\b(bearer|basic)(\s+)[\w.\-~+/=]+"), r"\1\2***"),
    (
        re.compile(
            r"(?i)([\w-]*(?:secret|password|token|api[_-]?key|account|pix_key|auth_value|authorization)"
            r"[\w-]*)([\"']?\s*[:=]\s*[\"']?)([^\s,\"'&}]+)"
        ),
        r"\1\2***",
    ),
]

# Fields bound for everything logged in the current context (an actor binds actor, queue and
# proposal_id while it runs, so the service code it calls logs them without passing them along).
_bound: contextvars.ContextVar[dict] = contextvars.ContextVar("log_fields", default={})
FIELDS = ("proposal_id", "actor", "queue", "route", "status", "duration_ms", "outcome")


def bind_fields(**fields) -> contextvars.Token:
    """Add ``fields`` to every log line of this context until :func:`unbind_fields`."""
    return _bound.set({**_bound.get(), **{k: v for k, v in fields.items() if v is not None}})


def unbind_fields(token: contextvars.Token) -> None:
    _bound.reset(token)


def redact(text: str) -> str:
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            entry["request_id"] = request_id
        bound = _bound.get()
        for key in FIELDS:
            value = getattr(record, key, None)
            if value is None:
                value = bound.get(key)
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
    # pika logs ERROR with a traceback whenever RabbitMQ drops an idle connection, which dramatiq
    # then reopens and retries on its own; real outages show in the outbox relay and readiness.
    logging.getLogger("pika").setLevel(logging.CRITICAL)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)

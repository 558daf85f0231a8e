"""Structured JSON logs carrying the request id, with personal data and secrets masked."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys

from models.services.platform.request_context import current_request_id

# Personal data in free text: e-mail addresses, Brazilian phone numbers (with +55, a parenthesised or
# spaced area code), CPFs (11 digits, masked or not) and people's names (below); then credentials:
# bearer/basic values and JWTs, and secrets in key=value or JSON form: any key that contains secret,
# password, token, api key, account, pix key, auth value or authorization (client_secret,
# access_token, bank_account_digit, x-api-key...).
_EMAIL = (re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"), "***EMAIL***")
_PHONES = [
    (
        re.compile(
            r"(?<![\w+])(?:\+55[\s.-]?\(?[1-9][0-9]\)?|\(\s?[1-9][0-9]\s?\)|\b[1-9][0-9](?=[\s.-]))"
            r"[\s.-]?9?[0-9]{4}[\s.-]?[0-9]{4}(?!\w)"
        ),
        "***PHONE***",
    ),
    (re.compile(r"\b55[1-9][0-9]9[0-9]{8}\b"), "***PHONE***"),
]
_PATTERNS = [
    _EMAIL,
    *_PHONES,
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

# People's names as they reach logs: two or more capitalised words, all upper-case (how names are
# stored and how HR systems send them: MARIA DA SILVA) or title-case (Maria da Silva), with the
# Portuguese particles between them; also the value of a name key (full_name=..., "signer_name": ...).
_UP, _LOW = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"
_UPPER_WORD = rf"[{_UP}][{_UP}'\u2019-]+"
_TITLE_WORD = rf"[{_UP}](?:[{_LOW}]+(?:['\u2019][{_UP}]?[{_LOW}]+)*|['\u2019][{_UP}][{_LOW}]+)(?:-[{_UP}][{_LOW}]+)*"
_PARTICLE = r"(?:d[aeo]s?|D[AEO]S?|e|E|d'|D')"
_NAMES = re.compile(
    rf"(?<![\w'\u2019-])(?:{_UPPER_WORD}(?:\s+(?:{_PARTICLE}\s+)?{_UPPER_WORD})+"
    rf"|{_TITLE_WORD}(?:\s+(?:{_PARTICLE}\s+)?{_TITLE_WORD})+)(?![\w'\u2019-])"
)
_NAME_KEY = re.compile(
    r"(?i)\b((?:full|signer|customer|holder|person)_?name|name)([\"']?\s*[:=]\s*[\"']?)([^,\"'&}\n]+)"
)
# Capitalised words that are not names: SQL, HTTP and our own log vocabulary.
_NOT_NAMES = frozenset(
    [
        "SELECT",
        "INSERT",
        "INTO",
        "UPDATE",
        "DELETE",
        "FROM",
        "WHERE",
        "AND",
        "OR",
        "NOT",
        "NULL",
        "SET",
        "VALUES",
        "ON",
        "CONFLICT",
        "RETURNING",
        "GET",
        "POST",
        "PUT",
        "PATCH",
        "HEAD",
        "OPTIONS",
        "HTTP",
        "HTTPS",
        "ALERT",
        "FAILED",
        "ERROR",
        "WARNING",
        "INFO",
        "DEBUG",
        "OK",
        "JSON",
    ]
)


def _name_or_words(match: re.Match) -> str:
    words = match.group(0).split()
    return match.group(0) if any(word in _NOT_NAMES for word in words) else "***NAME***"


# Fields bound for everything logged in the current context (an actor binds actor, queue and
# proposal_id while it runs, so the service code it calls logs them without passing them along).
_bound: contextvars.ContextVar[dict] = contextvars.ContextVar("log_fields", default={})
FIELDS = ("origin", "proposal_id", "actor", "queue", "route", "status", "duration_ms", "outcome")


def bind_fields(**fields) -> contextvars.Token:
    """Add ``fields`` to every log line of this context until :func:`unbind_fields`."""
    return _bound.set({**_bound.get(), **{k: v for k, v in fields.items() if v is not None}})


def unbind_fields(token: contextvars.Token) -> None:
    _bound.reset(token)


def redact(text: str) -> str:
    """``text`` with personal data and credentials masked (the patterns above)."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    text = _NAME_KEY.sub(r"\1\2***NAME***", text)
    return _NAMES.sub(_name_or_words, text)


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

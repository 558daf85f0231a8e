"""The one JSON-over-HTTP client of the real adapters (credit path and contract path alike).

One ``requests.Session`` per adapter, explicit (connect, read) timeouts, a bounded retry with
exponential backoff on connection errors, timeouts and 5xx, and one error hierarchy:
``ExternalError`` (not worth retrying) and ``RetryableExternalError`` (try again later).
Every HTTP attempt logs one timing line (system, method, host/path, status, ms) and never a body
or a query string: both may carry personal data (CPF, Pix key).
"""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from models.settings import ExternalSystemSettings

log = logging.getLogger(__name__)

# Sections with a single ``timeout_seconds`` (contract path): it bounds the read, and connecting
# gets at most this much of it, so a dead host is noticed quickly even with a long read budget.
MAX_CONNECT_TIMEOUT = 5.0


class ExternalError(Exception):
    """An external system could not answer usefully; ``retryable`` says whether the same call may
    succeed later. ``status_code`` and ``body`` (decoded answer) are set when there was an answer."""

    retryable = False

    def __init__(self, message: str, *, status_code: int | None = None, body: Any = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.body = body


class RetryableExternalError(ExternalError):
    """Connection refused, timeout or 5xx: trying again later may work."""

    retryable = True


class HttpClient:
    """JSON over HTTP with (connect, read) timeouts and a bounded retry on retryable errors."""

    def __init__(
        self,
        base_url: str,
        *,
        connect_timeout: float,
        read_timeout: float,
        retries: int = 2,
        name: str = "external",
        backoff_seconds: float = 0.2,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.host = urlsplit(self.base_url).netloc
        self.timeout = (float(connect_timeout), float(read_timeout))
        self.retries = int(retries)
        self.name = name
        self.backoff_seconds = backoff_seconds
        self.session = requests.Session()
        self.session.mount("http://", HTTPAdapter(pool_maxsize=16))
        self.session.mount("https://", HTTPAdapter(pool_maxsize=16))
        # Content-Type is set by requests whenever a JSON body is sent.
        self.session.headers.update({"Accept": "application/json"})

    def post(self, path: str, body: dict[str, Any], *, headers: dict | None = None) -> dict[str, Any]:
        """POST ``body`` and return the decoded JSON answer; an empty or non-JSON answer is an ExternalError."""
        return self._json_answer(self._send("POST", path, json=body, headers=headers))

    def get(self, path: str, params: dict[str, Any] | None = None, *, headers: dict | None = None) -> dict[str, Any]:
        """GET ``path?params`` and return the decoded JSON answer, like ``post``."""
        return self._json_answer(self._send("GET", path, params=params, headers=headers))

    def request(
        self, method: str, path: str, *, json: Any = None, headers: dict | None = None, log_path: str | None = None
    ) -> Any:
        """Any call whose answer may be empty: the decoded JSON, None when empty, ``{"raw": text}`` when
        not JSON. ``log_path`` replaces ``path`` in the log line when the path itself is personal data."""
        return _decoded(self._send(method, path, json=json, headers=headers, log_path=log_path))

    def _send(self, method: str, path: str, *, log_path: str | None = None, **kwargs) -> requests.Response:
        """The 2xx response, after at most ``retries`` more attempts; raises ExternalError subclasses."""
        shown = log_path or path.split("?", 1)[0]
        last: ExternalError | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_seconds * (2 ** (attempt - 1)))
            # Both clock readings stay in this frame: freezegun decides real or frozen time by call depth.
            started = time.perf_counter()
            try:
                response = self.session.request(method, self.base_url + path, timeout=self.timeout, **kwargs)
            except (requests.ConnectionError, requests.Timeout) as error:
                self._log(method, shown, error.__class__.__name__, (time.perf_counter() - started) * 1000)
                last = RetryableExternalError(f"{self.name}: {error.__class__.__name__}")
                continue
            self._log(method, shown, response.status_code, (time.perf_counter() - started) * 1000)
            if response.status_code >= 500:
                last = RetryableExternalError(
                    f"{self.name}: HTTP {response.status_code}",
                    status_code=response.status_code,
                    body=_decoded(response),
                )
                continue
            if response.status_code >= 400:
                raise ExternalError(
                    f"{self.name}: HTTP {response.status_code}",
                    status_code=response.status_code,
                    body=_decoded(response),
                )
            return response
        assert last is not None
        raise last

    def _json_answer(self, response: requests.Response) -> Any:
        try:
            return response.json()
        except ValueError:
            raise ExternalError(f"{self.name}: invalid JSON answer", status_code=response.status_code) from None

    def _log(self, method: str, path: str, outcome: int | str, elapsed_ms: float) -> None:
        retryable = not isinstance(outcome, int) or outcome >= 500
        log.log(
            logging.WARNING if retryable else logging.INFO,
            "%s %s %s%s -> %s in %.1f ms",
            self.name,
            method,
            self.host,
            path,
            outcome,
            elapsed_ms,
        )


def _decoded(response: requests.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return {"raw": response.text[:500]}


def client_for(settings: ExternalSystemSettings, name: str) -> HttpClient:
    """An HttpClient configured from a ``[default.external.<name>]`` settings table."""
    return HttpClient(
        settings.url,
        connect_timeout=settings.connect_timeout,
        read_timeout=settings.read_timeout,
        retries=settings.retries,
        name=name,
    )


def client_with_timeout(base_url: str, timeout: float, name: str) -> HttpClient:
    """An HttpClient for a section with one ``timeout_seconds`` (read bound; connect capped)."""
    return HttpClient(base_url, connect_timeout=min(timeout, MAX_CONNECT_TIMEOUT), read_timeout=timeout, name=name)

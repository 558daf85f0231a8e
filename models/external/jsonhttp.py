"""Shared JSON-over-HTTP client for the real provider adapters of the contract path.

One ``requests.Session`` per adapter, explicit (connect, read) timeouts, a few quick retries on
connection errors and 5xx, and two error types so callers know whether to try again later.
"""
from __future__ import annotations

import logging
import time
from typing import Any

import requests

log = logging.getLogger(__name__)


class ProviderError(Exception):
    """A provider call failed; ``retryable`` says whether the same call may succeed later."""

    retryable = False

    def __init__(self, message: str, *, status: int | None = None, body: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class RetryableProviderError(ProviderError):
    """Connection error, timeout or 5xx: try again later (the actor retries)."""

    retryable = True


class JsonHttpClient:
    """POST/GET JSON to ``base_url`` with timeouts and bounded retries."""

    def __init__(self, base_url: str, timeout: float, *, attempts: int = 3, backoff: float = 0.2,
                 headers: dict | None = None, session: requests.Session | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = (min(timeout, 5.0), timeout)
        self.attempts = attempts
        self.backoff = backoff
        self.session = session or requests.Session()
        self.session.headers.update({"Accept": "application/json", **(headers or {})})

    def request(self, method: str, path: str, *, json: Any = None, headers: dict | None = None) -> Any:
        """The decoded JSON answer (None when empty); raises ProviderError / RetryableProviderError."""
        url = f"{self.base_url}{path}"
        last: ProviderError | None = None
        for attempt in range(1, self.attempts + 1):
            try:
                response = self.session.request(method, url, json=json, headers=headers, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as error:
                last = RetryableProviderError(f"{method} {url}: {error.__class__.__name__}")
            else:
                if response.status_code >= 500:
                    last = RetryableProviderError(f"{method} {url}: HTTP {response.status_code}",
                                                  status=response.status_code, body=_body(response))
                elif response.status_code >= 400:
                    raise ProviderError(f"{method} {url}: HTTP {response.status_code}",
                                        status=response.status_code, body=_body(response))
                else:
                    return _body(response)
            log.warning("provider call failed (attempt %s/%s): %s", attempt, self.attempts, last)
            if attempt < self.attempts:
                time.sleep(self.backoff * 2 ** (attempt - 1))
        assert last is not None
        raise last


def _body(response: requests.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return {"raw": response.text[:500]}

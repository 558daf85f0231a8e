"""Shared base of the real HTTP adapters: one requests.Session, explicit timeouts, and the
split between retryable failures (connection errors, timeouts, 5xx) and non-retryable ones."""
from __future__ import annotations

import logging
import time
from typing import Any

import requests
from requests.adapters import HTTPAdapter

log = logging.getLogger(__name__)


class ExternalError(Exception):
    """The external system could not answer usefully."""

    retryable = False

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class RetryableExternalError(ExternalError):
    """Connection refused, timeout or 5xx: trying again later may work."""

    retryable = True


class HttpClient:
    """JSON over HTTP with (connect, read) timeouts and a bounded retry on retryable errors."""

    def __init__(self, base_url: str, *, connect_timeout: float, read_timeout: float, retries: int = 2,
                 name: str = "external", backoff_seconds: float = 0.2) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = (float(connect_timeout), float(read_timeout))
        self.retries = int(retries)
        self.name = name
        self.backoff_seconds = backoff_seconds
        self.session = requests.Session()
        self.session.mount("http://", HTTPAdapter(pool_maxsize=16))
        self.session.mount("https://", HTTPAdapter(pool_maxsize=16))
        self.session.headers.update({"Accept": "application/json", "Content-Type": "application/json"})

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` and return the decoded JSON answer; raises ExternalError subclasses."""
        return self._request("POST", path, json=body)

    def get(self, path: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._request("GET", path, params=params)

    def _request(self, method: str, path: str, **kwargs) -> dict[str, Any]:
        last: ExternalError | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_seconds * (2 ** (attempt - 1)))
            started = time.perf_counter()
            try:
                response = self.session.request(method, self.base_url + path, timeout=self.timeout, **kwargs)
            except (requests.ConnectionError, requests.Timeout) as error:
                last = RetryableExternalError(f"{self.name}: {error.__class__.__name__}")
                continue
            finally:
                log.info("%s %s %s took %.1f ms", self.name, method, path, (time.perf_counter() - started) * 1000)
            if response.status_code >= 500:
                last = RetryableExternalError(f"{self.name}: HTTP {response.status_code}",
                                              status_code=response.status_code)
                continue
            if response.status_code >= 400:
                raise ExternalError(f"{self.name}: HTTP {response.status_code}", status_code=response.status_code)
            try:
                return response.json()
            except ValueError:
                raise ExternalError(f"{self.name}: invalid JSON answer") from None
        assert last is not None
        raise last


def client_for(settings_node, name: str) -> HttpClient:
    """An HttpClient configured from a ``[default.external.<name>]`` settings table."""
    return HttpClient(settings_node.url, connect_timeout=settings_node.connect_timeout,
                      read_timeout=settings_node.read_timeout, retries=settings_node.get("retries", 2), name=name)

"""A partner client for a service that may be failing: it retries what a partner retries (5xx
answers, refused or reset connections), honours Retry-After, and writes every such answer down.

The record is the evidence for "no 500 while a dependency is away": each problem carries the
route (ids replaced by ``{id}``), the status code (None: no HTTP answer at all), Retry-After and
whether the body is the spec's error body.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests

from bench.client import PartnerClient, StepFailed

# A partner waits what Retry-After asks, within reason (a run must stay bounded).
MAX_RETRY_AFTER = 15.0
NO_HINT_PAUSE = 1.0
_ID = re.compile(r"/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
ERROR_FIELDS = {"statusCode": int, "message": str, "error": str, "errorCode": str}


@dataclass(frozen=True)
class HttpProblem:
    """One 5xx answer, or one request that got no HTTP answer."""

    at: float  # seconds since the run's start
    method: str
    route: str
    code: int | None
    retry_after: str | None
    spec_body: bool  # {statusCode, message, error, errorCode} with statusCode == code
    detail: str


def route_of(url: str) -> str:
    """``/v1/proposals/{id}/contract`` for any proposal (no host, no query)."""
    return _ID.sub("/{id}", urlsplit(url).path)


def is_spec_error_body(response: requests.Response) -> bool:
    try:
        body = response.json()
    except ValueError:
        return False
    return (
        isinstance(body, dict)
        and all(isinstance(body.get(name), kind) for name, kind in ERROR_FIELDS.items())
        and body["statusCode"] == response.status_code
    )


class ProblemLog:
    """Thread-safe list of HttpProblem, times measured from ``started``."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.problems: list[HttpProblem] = []
        self._lock = threading.Lock()

    def add(self, method: str, url: str, response: requests.Response | None, error: Exception | None) -> None:
        problem = HttpProblem(
            at=time.monotonic() - self.started,
            method=method,
            route=route_of(url),
            code=response.status_code if response is not None else None,
            retry_after=response.headers.get("Retry-After") if response is not None else None,
            spec_body=response is not None and is_spec_error_body(response),
            detail=(response.text[:200] if response is not None else f"{type(error).__name__}: {error}")[:200],
        )
        with self._lock:
            self.problems.append(problem)


class PatientClient(PartnerClient):
    """PartnerClient whose calls outlast outages: a 5xx or a failed connection is recorded and
    retried, until the service has failed this call for ``patience`` seconds in a row or
    ``give_up_at()`` (a time.monotonic() value, read at each retry) has passed; then the step
    fails."""

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        *,
        log: ProblemLog,
        give_up_at: Callable[[], float],
        patience: float,
        poll_interval: float,
    ) -> None:
        super().__init__(base_url, client_id, client_secret, timeout=60.0, poll_interval=poll_interval)
        self.log = log
        self.give_up_at = give_up_at
        self.patience = patience

    def _patiently(self, step: str, method: str, url: str, send) -> requests.Response:
        failing_since = time.monotonic()
        while True:
            try:
                response = send()
            except requests.RequestException as error:
                self.log.add(method, url, None, error)
                pause = NO_HINT_PAUSE
                response = None
            else:
                if response.status_code < 500:
                    return response
                self.log.add(method, url, response, None)
                pause = _retry_after(response)
            resume_at = time.monotonic() + pause
            if resume_at - failing_since > self.patience or resume_at > self.give_up_at():
                raise StepFailed(step, response, f"the service kept failing for {resume_at - failing_since:.0f} s")
            time.sleep(pause)
            # A new connection after a failure: the pooled one may be half-closed.
            self.session.close()

    def _token_response(self) -> requests.Response:
        return self._patiently("token", "POST", self.root + "/oauth2/token", super()._token_response)

    def call(self, step: str, method: str, path: str, **kwargs) -> requests.Response:
        url = path if path.startswith("http") else self.api + path
        parent = super().call
        return self._patiently(step, method, url, lambda: parent(step, method, path, **dict(kwargs)))


def _retry_after(response: requests.Response) -> float:
    hint = response.headers.get("Retry-After", "")
    try:
        return min(MAX_RETRY_AFTER, max(0.0, float(hint)))
    except ValueError:
        return NO_HINT_PAUSE

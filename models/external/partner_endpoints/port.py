"""Port: one HTTP POST to a partner's webhook endpoint, reported as data (never raises)."""

from __future__ import annotations

import abc
from dataclasses import dataclass


@dataclass(frozen=True)
class EndpointResponse:
    """What one attempt produced: a status code, or an error text when no response arrived."""

    status_code: int | None
    error: str | None
    latency_ms: int
    snippet: str | None = None

    @property
    def ok(self) -> bool:
        """Only a 2xx answer counts as delivered (spec: both webhooks)."""
        return self.status_code is not None and 200 <= self.status_code < 300


class PartnerEndpoints(abc.ABC):
    """Sends webhook requests to partners. Retries belong to the delivery schedule, not here."""

    @abc.abstractmethod
    def post(self, url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> EndpointResponse:
        """POST ``body`` with ``headers``; ``timeout`` bounds the whole attempt in seconds."""

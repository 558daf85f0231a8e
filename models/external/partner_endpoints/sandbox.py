"""Recording implementation: no network; keeps every request and answers from a script."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from models.external.partner_endpoints.port import EndpointResponse, PartnerEndpoints


@dataclass
class RecordedRequest:
    url: str
    body: bytes
    headers: dict[str, str]
    timeout: float


@dataclass
class RecordingPartnerEndpoints(PartnerEndpoints):
    """Answers each POST with the next scripted status code (200 once the script is used up)."""

    script: list[int] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def post(self, url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> EndpointResponse:
        with self._lock:
            self.requests.append(RecordedRequest(url, body, dict(headers), timeout))
            code = self.script.pop(0) if self.script else 200
        return EndpointResponse(code, None, 0, "")

"""A local HTTP simulator of an external system (the shared LocalServer on 127.0.0.1:0), scripted per test."""

from __future__ import annotations

import json

from tests.support.local_server import IncomingRequest, LocalServer


class Simulator:
    """Answers each request with the next scripted (status, body) and records what it received.

    ``requests`` holds {method, path, body (decoded JSON)}; ``headers`` the headers of each, in the
    same order. A str body is sent as is (e.g. "" for an empty answer)."""

    def __init__(self) -> None:
        self.script: list[tuple[int, object]] = []
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.server = LocalServer(self._answer).start()
        self.url = self.server.url()

    def _answer(self, request: IncomingRequest) -> tuple[int, bytes]:
        self.requests.append(
            {"method": request.method, "path": request.path, "body": json.loads(request.body) if request.body else None}
        )
        self.headers.append(request.headers)
        status, body = self.script.pop(0) if self.script else (500, {"error": "unscripted"})
        return status, body.encode() if isinstance(body, str) else json.dumps(body).encode()

    def close(self) -> None:
        self.server.stop()

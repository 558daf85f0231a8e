"""A partner endpoint on 127.0.0.1:0 (the shared LocalServer) that records every request and
answers from a script, for webhook tests and the schedule benchmark."""

from __future__ import annotations

from dataclasses import dataclass

from tests.support.local_server import IncomingRequest, LocalServer


@dataclass
class Received:
    at: float  # time.monotonic() on arrival
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int


class LocalReceiver:
    """``script``: status codes answered in order (then ``default``); ``delay`` seconds before answering;
    ``keep_alive``: HTTP/1.1 with connections kept open (LocalServer)."""

    def __init__(
        self, script: list[int] | None = None, default: int = 200, delay: float = 0.0, *, keep_alive: bool = False
    ) -> None:
        self.script = list(script or [])
        self.default = default
        self.received: list[Received] = []
        # keep_alive (the benchmarks): connections reused as by a production endpoint, and a poll
        # of the listening socket twice a second rather than twenty times (no test's teardown waits).
        self._server = LocalServer(
            self._answer, delay=delay, keep_alive=keep_alive, poll_interval=0.5 if keep_alive else 0.05
        )

    def _answer(self, request: IncomingRequest) -> tuple[int, bytes]:
        code = self.script.pop(0) if self.script else self.default
        self.received.append(Received(request.at, request.path, request.headers, request.body, code))
        return code, b'{"received":true}'

    def url(self, path: str = "/hook") -> str:
        return self._server.url(path)

    def start(self) -> LocalReceiver:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop()

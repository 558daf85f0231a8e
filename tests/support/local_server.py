"""One local HTTP peer for tests and benchmarks: a stdlib ThreadingHTTPServer on 127.0.0.1:0 in a
daemon thread. It records nothing and decides nothing itself: ``answer(request)`` does both, so the
adapter simulator and the webhook receiver share the plumbing and keep their own scripts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class IncomingRequest:
    at: float  # time.monotonic() on arrival
    method: str
    path: str  # with the query string, as sent
    headers: dict[str, str]
    body: bytes


class LocalServer:
    """Serves GET and POST with ``answer(request) -> (status, payload bytes)`` (a JSON payload).

    ``answer`` runs under a lock, so scripts may pop and record without races; ``delay`` seconds
    are slept after it and before the reply (to provoke client timeouts)."""

    def __init__(
        self,
        answer: Callable[[IncomingRequest], tuple[int, bytes]],
        *,
        delay: float = 0.0,
        keep_alive: bool = False,
        poll_interval: float = 0.05,
    ) -> None:
        self.answer = answer
        self.delay = delay
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler(keep_alive))
        self._server.daemon_threads = True
        # A short poll interval keeps stop() (and so every test's teardown) fast.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": poll_interval}, daemon=True
        )

    def _handler(self, keep_alive: bool):
        server = self

        class Handler(BaseHTTPRequestHandler):
            # keep_alive: HTTP/1.1, one connection for many requests, as a partner's production
            # endpoint answers (the stdlib's default, HTTP/1.0, closes it after each answer). The
            # answer's header and body are two writes: without TCP_NODELAY the second waits for
            # the client's delayed acknowledgement (tens of milliseconds per request).
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"
            disable_nagle_algorithm = keep_alive

            def _serve(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with server._lock:
                    status, payload = server.answer(
                        IncomingRequest(time.monotonic(), self.command, self.path, dict(self.headers.items()), body)
                    )
                if server.delay:
                    time.sleep(server.delay)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _serve

            def log_message(self, *args):  # keep test output clean
                pass

        return Handler

    def url(self, path: str = "") -> str:
        """``http://127.0.0.1:<port><path>``."""
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def start(self) -> LocalServer:
        """Start serving in the background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (a later connection is refused)."""
        self._server.shutdown()
        self._server.server_close()

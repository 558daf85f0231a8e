"""A partner endpoint on 127.0.0.1:0 (stdlib http.server in a thread) that records every request
and answers from a script, for webhook tests and the schedule benchmark."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    at: float  # time.monotonic() on arrival
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int


class LocalReceiver:
    """``script``: status codes answered in order (then ``default``); ``delay`` seconds before answering."""

    def __init__(self, script: list[int] | None = None, default: int = 200, delay: float = 0.0) -> None:
        self.script = list(script or [])
        self.default = default
        self.delay = delay
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def _handler(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (stdlib naming)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._lock:
                    code = receiver.script.pop(0) if receiver.script else receiver.default
                    receiver.received.append(Received(time.monotonic(), self.path, dict(self.headers.items()),
                                                      body, code))
                if receiver.delay:
                    time.sleep(receiver.delay)
                payload = b'{"received":true}'
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):  # keep test output clean
                pass

        return Handler

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def start(self) -> "LocalReceiver":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

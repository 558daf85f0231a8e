"""A local HTTP simulator (stdlib http.server on 127.0.0.1:0) scripted per test."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Simulator:
    """Answers each request with the next scripted (status, body) and records what it received."""

    def __init__(self) -> None:
        self.script: list[tuple[int, object]] = []
        self.requests: list[dict] = []
        simulator = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                simulator.requests.append({"method": self.command, "path": self.path,
                                           "body": json.loads(raw) if raw else None})
                status, body = simulator.script.pop(0) if simulator.script else (500, {"error": "unscripted"})
                payload = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

            def log_message(self, *args) -> None:  # keep test output clean
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

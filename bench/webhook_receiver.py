"""A local partner endpoint for the demo: records every webhook POSTed to it and answers 200."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class WebhookReceiver:
    """``WebhookReceiver(0).start()``; ``.url`` to give the service, ``.events`` what arrived."""

    def __init__(self, port: int = 0) -> None:
        self.events: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                receiver.events.append(body if isinstance(body, dict) else {"body": body})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"received": true}')

            def log_message(self, *args):  # quiet: the demo prints what it received
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def start(self) -> None:
        threading.Thread(target=self.server.serve_forever, name="webhook-receiver", daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()

"""The production API server keeps an idle connection open longer than a client pauses between
requests (http/gunicorn_conf.py, ``keepalive``): a partner or a gateway that reuses its connection
after a few seconds is answered, never reset by a server closing the connection at that instant."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
REQUEST = b"GET /anything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _answer(connection: socket.socket) -> bytes:
    """One response read off ``connection`` (headers and the short body), or what came before it
    closed."""
    data = b""
    while b'{"ok":true}' not in data:
        chunk = connection.recv(4096)
        if not chunk:
            return data
        data += chunk
    return data


def _connect(port: int, limit: float) -> socket.socket:
    deadline = time.monotonic() + limit
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_connection_idle_longer_than_gunicorn_s_default_keep_alive_still_carries_a_request(tmp_path):
    port = _free_port()
    environ = {k: v for k, v in os.environ.items() if k not in ("AMQP_URL", "API_KEEPALIVE_SECONDS")}
    environ.update(APP_ENV="test", DATABASE_URL=f"sqlite:///{tmp_path}/unused.sqlite3", WEB_CONCURRENCY="1")
    command = [str(BIN / "gunicorn"), "--config", "http/gunicorn_conf.py", "--bind", f"127.0.0.1:{port}"]
    with open(tmp_path / "gunicorn.log", "wb") as log:  # read it when the test fails
        server = subprocess.Popen(
            [*command, "tests.support.plain_wsgi:app"],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    try:
        with _connect(port, limit=30) as connection:
            connection.sendall(REQUEST)
            assert _answer(connection).startswith(b"HTTP/1.1 200")
            time.sleep(3.5)  # gunicorn's own default (2 s) would have closed it by now
            connection.sendall(REQUEST)
            assert _answer(connection).startswith(b"HTTP/1.1 200")
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)

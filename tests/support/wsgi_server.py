"""The service's Flask app served over real HTTP from a thread of the test process, by the same
WSGI server as ``make run`` (waitress), on a free loopback port."""

from __future__ import annotations

import threading

from waitress.server import create_server


class ServedApp:
    """``with ServedApp(app) as base_url:`` serves ``app`` on http://127.0.0.1:<free port>."""

    def __init__(self, app, *, threads: int = 4) -> None:
        from httpapi.server_refusals import install_for_waitress

        install_for_waitress()  # as app.main does
        self._server = create_server(app, host="127.0.0.1", port=0, threads=threads, clear_untrusted_proxy_headers=True)
        self.base_url = f"http://127.0.0.1:{self._server.effective_port}"
        self._thread = threading.Thread(target=self._server.run, name="served-app", daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        return self.base_url

    def __exit__(self, *exc) -> None:
        self._server.close()
        self._thread.join(timeout=5)

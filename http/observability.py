"""Per-request access log with the request id echoed back to the caller."""
from __future__ import annotations

import logging
import time

from flask import Flask, g, request

from models.services.request_context import current_request_id

log = logging.getLogger("access")


def install(app: Flask) -> None:
    @app.before_request
    def _start_timer():
        g.started = time.perf_counter()

    @app.after_request
    def _log_request(response):
        duration_ms = round((time.perf_counter() - g.get("started", time.perf_counter())) * 1000, 2)
        route = request.url_rule.rule if request.url_rule else "unmatched"
        request_id = current_request_id()
        if request_id:
            response.headers["X-Request-Id"] = request_id
        log.info("%s %s %s", request.method, route, response.status_code,
                 extra={"route": route, "status": response.status_code, "duration_ms": duration_ms})
        return response

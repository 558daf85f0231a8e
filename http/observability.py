"""Per-request access log and API metrics, with the request id echoed back to the caller.

Also mounts ``GET /metrics`` (Prometheus text, outside /v1, no token: restrict it at the proxy).
"""

from __future__ import annotations

import logging
import time

from flask import Blueprint, Flask, Response, g, request

from models import runtime
from models.services.platform import metrics
from models.services.platform.request_context import current_request_id

log = logging.getLogger("access")
# Probes and scrapes hit every few seconds: their access lines are DEBUG, not INFO noise.
QUIET_ROUTES = frozenset({"/health/live", "/health/ready", "/metrics"})

metrics_blp = Blueprint("metrics", __name__)


@metrics_blp.route("/metrics")
def expose_metrics():
    """Prometheus exposition: API and actor metrics plus business figures (cached, see config)."""
    settings = runtime.current().settings
    body, content_type = metrics.render(settings.metrics.business_cache_seconds, settings.contact)
    return Response(body, content_type=content_type)


def install(app: Flask) -> None:
    @app.before_request
    def _start_timer():
        g.started = time.perf_counter()

    @app.after_request
    def _log_request(response):
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        duration_ms = round(elapsed * 1000, 2)
        # The route template (/v1/proposals/<proposal_id>), never the raw path: bounded label
        # values, and no ids or CPFs in metrics or access lines.
        route = request.url_rule.rule if request.url_rule else "unmatched"
        request_id = current_request_id()
        if request_id:
            response.headers["X-Request-Id"] = request_id
        metrics.http_requests.labels(request.method, route, str(response.status_code)).inc()
        metrics.http_latency.labels(request.method, route).observe(elapsed)
        level = logging.DEBUG if route in QUIET_ROUTES else logging.INFO
        log.log(
            level,
            "%s %s %s",
            request.method,
            route,
            response.status_code,
            extra={"route": route, "status": response.status_code, "duration_ms": duration_ms},
        )
        return response

    app.register_blueprint(metrics_blp)

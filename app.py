"""Composition root: settings, database, broker, ports and actors, then the Flask app or the worker.

``bootstrap`` runs once per process for every entry point below (and the benchmarks and tests): it
loads the typed settings, opens the database and its schema, chooses the broker, builds the ports
(one adapter per external system, each HTTP adapter with its own session) and installs them as the
runtime (``models.runtime``) the edges read: routes, ops commands, actors and the broker side pass
each use case the ports and settings sections it needs (README, "How it is built").

Entry points:
  python app.py                      embedded default (API + in-process broker and worker)
  gunicorn 'app:create_app()'        production API
  dramatiq rabbitmq.worker           production worker pools (see Makefile: make worker)
  flask --app app:create_app ...     ops CLI (see Makefile: make cli ARGS="...")

The folder ``http/`` holds the web layer. A top-level package named ``http`` would hide Python's
own ``http`` module (flask, requests and the test client need it), so ``http/`` has no
``__init__.py`` and is mounted under the name ``httpapi`` instead.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import logging
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
HTTP_PACKAGE = "httpapi"
# Probes and the metrics scrape open the database themselves and report when it is down.
UNCONNECTED_PATHS = frozenset({"/health/live", "/health/ready", "/metrics"})


def mount_http_package() -> None:
    """Make ``http/`` importable as ``httpapi`` without shadowing the standard library."""
    if HTTP_PACKAGE in sys.modules:
        return
    spec = importlib.machinery.ModuleSpec(HTTP_PACKAGE, None, is_package=True)
    spec.submodule_search_locations = [str(ROOT / "http")]
    module = importlib.util.module_from_spec(spec)
    sys.modules[HTTP_PACKAGE] = module


mount_http_package()

from models import runtime  # noqa: E402
from models.settings import Settings, load_settings, require_broker  # noqa: E402

log = logging.getLogger("app")
_booted: dict[str, object] = {}


def configure_logging(settings: Settings) -> None:
    from models.services.platform.logs import configure

    configure(settings.log_level)


def bootstrap(settings: Settings | None = None, *, role: str = "api") -> runtime.Runtime:
    """Settings (``settings`` or loaded from the environment), database and schema, the broker, the
    ports and the runtime, then the actors; once per process (a second call returns the first runtime).

    ``role`` "worker" (the pools' entry point) refuses to start without AMQP_URL; the API under
    gunicorn is checked by its config (http/gunicorn_conf.py), while the embedded ``make run`` and
    the ops CLI keep the in-process broker."""
    if "runtime" in _booted:
        return _booted["runtime"]  # type: ignore[return-value]
    settings = settings or load_settings()
    if role == "worker":
        require_broker(settings, "a worker pool (make worker, make pools)")
    configure_logging(settings)
    from models.db.database import create_schema, open_database

    open_database(settings.database_url)
    from models.db import prepared

    prepared.prepared.enabled = settings.database.prepared_statements
    create_schema(lock_timeout_seconds=settings.schema.ddl_lock_timeout_seconds, attempts=settings.schema.ddl_attempts)
    from rabbitmq.broker import configure_broker

    configure_broker(settings)
    from models.external.ports import build_ports

    # Installed before the actors are imported: their queue names carry the configured prefix.
    installed = runtime.install(runtime.Runtime(settings, build_ports(settings)))
    import actors  # noqa: F401  (binds every actor to the broker chosen above)
    from models.services.platform import metrics, unit_of_work, wakeups
    from rabbitmq import published_marks
    from rabbitmq.outbox_relay import publish_after_commit
    from rabbitmq.queue_depth import queue_depths

    unit_of_work.set_after_commit_publisher(
        publish_after_commit, lease_seconds=settings.outbox.after_commit_lease_seconds
    )
    published_marks.set_interval(settings.outbox.published_mark_interval_seconds)
    unit_of_work.set_after_commit_notifier(wakeups.publish_after_commit)
    metrics.set_queue_depth_reader(queue_depths)
    from models.db.database import db, startup_lock
    from models.services.lifecycle.sweep import schedule_next_sweep
    from models.services.money_path.redrive import schedule_next_sweep as schedule_next_money_path_sweep
    from models.services.webhooks.auction_polling import schedule_next_poll

    with db.connection_context():
        if settings.seed_sandbox_partners:
            from models.services.partners.accounts import seed_sandbox_partners

            with startup_lock():  # processes starting together on a fresh database seed once
                seed_sandbox_partners(settings.credential_environment)
        # keeps the auction feed read even when nothing else runs it
        schedule_next_poll(auctions_settings=settings.auctions)
        # and the lifecycle sweep, which gives every stalled status its exit
        schedule_next_sweep(lifecycle_settings=settings.lifecycle)
        # and the money-path sweep, which drives again any step or status event whose message was lost
        schedule_next_money_path_sweep(money_path_settings=settings.money_path)
    _booted["runtime"] = installed
    _booted["role"] = role
    return installed


def _register_routes(app, api, base_path: str) -> None:
    routes = importlib.import_module(f"{HTTP_PACKAGE}.routes")
    for info in sorted(pkgutil.iter_modules(routes.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{HTTP_PACKAGE}.routes.{info.name}")
        blueprint = getattr(module, "blp", None)
        if blueprint is not None:
            api.register_blueprint(blueprint, url_prefix=base_path + getattr(module, "PREFIX", ""))
        for extra in getattr(module, "PLAIN_BLUEPRINTS", ()):
            app.register_blueprint(extra)


def create_app(settings: Settings | None = None):
    """The Flask application (gunicorn: ``app:create_app()``)."""
    settings = bootstrap(settings, role="api").settings
    from flask import Flask, g, request

    from models.db.database import db, is_postgres

    api_module = importlib.import_module(f"{HTTP_PACKAGE}.api")
    auth = importlib.import_module(f"{HTTP_PACKAGE}.auth")
    guards = importlib.import_module(f"{HTTP_PACKAGE}.guards")
    idempotency = importlib.import_module(f"{HTTP_PACKAGE}.idempotency")
    oauth = importlib.import_module(f"{HTTP_PACKAGE}.oauth")
    docs = importlib.import_module(f"{HTTP_PACKAGE}.docs")
    health = importlib.import_module(f"{HTTP_PACKAGE}.health")
    observability = importlib.import_module(f"{HTTP_PACKAGE}.observability")
    from models.services.platform.logs import unbind_fields
    from models.services.platform.request_context import bind_request_id, reset_request_id

    app = Flask("consignado", root_path=str(ROOT))
    app.config.update(
        API_TITLE="Payroll-deducted loan origination API",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX=settings.base_path,
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "servers": [{"url": "/"}],
            "components": {
                "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}
            },
            "security": [{"bearerAuth": []}],
            "info": {"description": "See README.md for the flow, sandbox CPFs and error codes."},
        },
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False

    @app.before_request
    def _open_request():
        g.request_id_token = bind_request_id(request.headers.get("X-Request-Id"))
        if request.path not in UNCONNECTED_PATHS:  # they must answer while the database is down
            db.connect(reuse_if_open=True)

    @app.teardown_request
    def _close_request(exc):
        if not db.is_closed():
            db.close()
        fields = g.pop("log_fields_token", None)  # bound by the bearer check (the origin)
        if fields is not None:
            unbind_fields(fields)
        token = g.pop("request_id_token", None)
        if token is not None:
            reset_request_id(token)

    api = api_module.ServiceApi(app)
    api_module.register_error_handlers(app)
    auth.install(app)
    guards.install(app)  # after the bearer check: no JSON is parsed for an unauthenticated caller
    idempotency.install(app)  # after both: keys are the token origin's, refused requests claim none
    oauth.install(app)
    oauth.document(api)
    docs.install(app)
    observability.install(app)
    app.register_blueprint(health.blp)
    _register_routes(app, api, settings.base_path)
    from httpapi.cli import commands

    commands.install(app)
    if is_postgres() and "listener" not in _booted:
        from models.services.platform.wakeups import PostgresListener

        listener = PostgresListener(_postgres_dsn(settings.database_url))
        listener.start()
        _booted["listener"] = listener
    return app


def stop_wakeup_listener() -> None:
    """Stop this process's wake-up listener, if it runs (tests, before dropping their database)."""
    listener = _booted.pop("listener", None)
    if listener is not None:
        listener.stop()  # type: ignore[attr-defined]


def _postgres_dsn(url: str) -> str:
    return url.replace("postgresql+pool://", "postgresql://").replace("postgres+pool://", "postgresql://")


def start_embedded_worker(settings: Settings):
    """The in-process worker and outbox sweeper of the embedded default."""
    import dramatiq

    from rabbitmq.outbox_relay import OutboxSweeper

    worker = dramatiq.Worker(dramatiq.get_broker(), worker_threads=settings.worker.embedded_threads, worker_timeout=100)
    worker.start()
    sweeper = OutboxSweeper()
    sweeper.start()
    return worker, sweeper


# Request threads of the embedded server (make run); the worker has its own (worker.embedded_threads).
EMBEDDED_SERVER_THREADS = 8


def _stop_on_sigterm() -> None:
    """SIGTERM (a process manager's stop) ends the server like Ctrl-C, so the worker drains."""
    import signal

    def _interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _interrupt)


def main() -> None:
    """`make run`: serve the API with the in-process broker and worker (or RabbitMQ if set).

    waitress serves it: a production WSGI server (HTTP/1.1 keep-alive, request buffering, a thread
    pool) in this very process, where the in-process broker and its worker live; gunicorn would
    fork the app into a worker process away from them (README, "make run")."""
    from waitress.server import create_server

    from httpapi.server_refusals import install_for_waitress

    install_for_waitress()
    app = create_app()
    settings = runtime.current().settings
    worker = sweeper = None
    if not settings.uses_rabbitmq:
        worker, sweeper = start_embedded_worker(settings)
    else:
        from rabbitmq.outbox_relay import OutboxSweeper

        sweeper = OutboxSweeper()
        sweeper.start()
    log.info(
        "serving %s on http://%s:%s%s, public address %s (environment %s, database %s, broker %s)",
        app.name,
        settings.host,
        settings.port,
        settings.base_path,
        settings.public_base_url,
        settings.environment,
        settings.database_url.split("@")[-1],
        "rabbitmq" if settings.uses_rabbitmq else "in-process",
    )
    server = create_server(app, host=settings.host, port=int(settings.port), threads=EMBEDDED_SERVER_THREADS)
    _stop_on_sigterm()
    try:
        server.run()  # returns on Ctrl-C or SIGTERM
    finally:
        server.close()
        if sweeper is not None:
            sweeper.stop()
        if worker is not None:
            worker.stop()


if __name__ == "__main__":
    main()

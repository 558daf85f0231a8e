"""gunicorn settings for the production API (`make api`; a file path, loaded by gunicorn itself).

Binding, workers and threads come from HOST/PORT/WEB_CONCURRENCY/API_THREADS; how long an idle
kept-alive connection stays open from API_KEEPALIVE_SECONDS (75 by default). With
PROMETHEUS_MULTIPROC_DIR set, a worker that exits is marked dead so its live gauges stop counting.
Before any worker starts, the settings are loaded and checked: without AMQP_URL, or outside sandbox
and test without a provider's callback secret, gunicorn stops with a message naming the variable.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("API_THREADS", "8"))
# Hybrid credit analysis and contract generation wait up to ~28 s; the gateway cuts at 30 s.
timeout = 35
# An idle kept-alive connection stays open this long (gunicorn's default is 2 s). The side that
# reuses connections (a partner's HTTP client, the gateway's pool) must be the one that closes an
# idle one first: a request it sends on a connection the server is closing at that instant is
# reset unanswered. 75 s outlasts the usual 60 s idle timeout of gateways and load balancers and
# the pauses of a partner that polls; an idle connection costs a worker only a slot in its poller.
keepalive = int(os.environ.get("API_KEEPALIVE_SECONDS", "75"))
graceful_timeout = 30
# gunicorn's own access log would repeat the service's structured one (which is redacted).
accesslog = None


def on_starting(server):
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from models.settings import load_settings, require_broker

    # A SettingsError (a RuntimeError) here makes gunicorn print it and exit 1 before any worker boots.
    require_broker(load_settings(), "the API under gunicorn (make api)")
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        from models.services.platform.metrics import prune_dead_process_files

        os.makedirs(directory, exist_ok=True)
        prune_dead_process_files(directory)


def post_worker_init(worker):
    # Requests gunicorn refuses before the app (malformed headers, lines over its limits) are
    # answered in the spec's JSON error body too (httpapi/server_refusals.py).
    from httpapi.server_refusals import install_for_gunicorn

    install_for_gunicorn()


def worker_exit(server, worker):
    # The worker has served its last request: its last "published" marks are written now rather
    # than left for the sweeper to re-send once their lease lapses (rabbitmq/published_marks.py).
    from rabbitmq import published_marks

    published_marks.flush()


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)

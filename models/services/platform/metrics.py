"""Prometheus metrics: API, actors, and business figures computed at scrape time.

Single process (make run, tests): everything lives in the default registry. Several processes
(gunicorn workers, dramatiq pools): set PROMETHEUS_MULTIPROC_DIR to one empty directory shared by
the API and the pools on that host *before* they start; GET /metrics then aggregates every
process's files (see README, "Health and metrics").
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

from models.settings import ContactSettings

NAMESPACE = "consignado"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

http_requests = Counter(
    "http_requests", "API requests by route template and status.", ["method", "route", "status"], namespace=NAMESPACE
)
http_latency = Histogram(
    "http_request_duration_seconds",
    "API request latency by route template.",
    ["method", "route"],
    namespace=NAMESPACE,
    buckets=LATENCY_BUCKETS,
)
actor_messages = Counter(
    "actor_messages",
    "Actor messages processed, by outcome (ok, retry, error, skipped).",
    ["actor", "queue", "outcome"],
    namespace=NAMESPACE,
)
actor_retries = Counter(
    "actor_retries", "Actor messages re-enqueued for a retry.", ["actor", "queue"], namespace=NAMESPACE
)
actor_dead_lettered = Counter(
    "actor_dead_lettered", "Actor messages sent to the dead-letter queue.", ["actor", "queue"], namespace=NAMESPACE
)
actor_duration = Histogram(
    "actor_duration_seconds",
    "Time an actor spent on one message.",
    ["actor", "queue"],
    namespace=NAMESPACE,
    buckets=LATENCY_BUCKETS,
)
actor_in_progress = Gauge(
    "actor_in_progress",
    "Actor messages being processed right now.",
    ["actor", "queue"],
    namespace=NAMESPACE,
    multiprocess_mode="livesum",
)


# Queue name -> messages waiting in it. The broker is infrastructure this layer does not import:
# the composition root (app.bootstrap) registers the reader once the broker is chosen.
QueueDepthReader = Callable[[], dict[str, int]]
_queue_depth_reader: QueueDepthReader | None = None


def set_queue_depth_reader(reader: QueueDepthReader | None) -> None:
    """Register how to read the broker's queue depths (None: the figure is left out)."""
    global _queue_depth_reader
    _queue_depth_reader = reader


class BusinessCollector:
    """Proposals by status, failed webhook deliveries, outbox backlog and queue depth.

    Read from the database and the broker when scraped, cached for ``ttl`` seconds so that several
    scrapers (or a fast scrape interval) cost one set of queries per interval.
    """

    def __init__(self, ttl: float, contact_settings: ContactSettings) -> None:
        self.ttl = ttl
        self.contact_settings = contact_settings
        self._lock = threading.Lock()
        self._cached: list | None = None
        self._at = 0.0

    def collect(self):
        with self._lock:
            if self._cached is None or time.monotonic() - self._at >= self.ttl:
                self._cached = self._read()
                self._at = time.monotonic()
            return list(self._cached)

    def _read(self) -> list:
        up = GaugeMetricFamily(f"{NAMESPACE}_business_metrics_up", "1 when the business figures below could be read.")
        try:
            families = _business_families(self.contact_settings)
        except Exception:  # the scrape still answers; the database may be down
            up.add_metric([], 0)
            return [up]
        up.add_metric([], 1)
        return [up, *families]


def _business_families(contact_settings: ContactSettings) -> list:
    from models.db.database import db

    with db.connection_context() if db.is_closed() else _nullcontext():
        families = [
            _proposals_by_status(),
            _failed_deliveries(),
            *_outbox(),
            _money_path_stuck(),
            _code_messages_unanswered(contact_settings),
        ]
        if _queue_depth_reader is not None:
            families.append(_queue_depth(_queue_depth_reader))
        return families


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _proposals_by_status() -> GaugeMetricFamily:
    import peewee

    from models.db.proposals import Proposal

    family = GaugeMetricFamily(f"{NAMESPACE}_proposals", "Proposals currently in each status.", labels=["status"])
    rows = Proposal.select(Proposal.status, peewee.fn.COUNT(Proposal.id).alias("n")).group_by(Proposal.status).tuples()
    for status, count in rows:
        family.add_metric([status], count)
    return family


def _failed_deliveries() -> GaugeMetricFamily:
    from models.services.webhooks.deliveries import failed_counts

    family = GaugeMetricFamily(
        f"{NAMESPACE}_webhook_deliveries_failed",
        "Webhook deliveries that exhausted their attempts (status FAILED).",
        labels=["kind"],
    )
    counts = failed_counts()
    for kind in ("status", "auction"):
        family.add_metric([kind], counts.get(kind, 0))
    return family


def _outbox() -> list:
    from models.services.platform.outbox import parked_count, pending_count, scheduled_count

    backlog = GaugeMetricFamily(
        f"{NAMESPACE}_outbox_backlog", "Outbox messages due but not yet published to the broker."
    )
    backlog.add_metric([], pending_count())
    scheduled = GaugeMetricFamily(
        f"{NAMESPACE}_outbox_scheduled", "Outbox messages scheduled for later (deadlines, next-day jobs)."
    )
    scheduled.add_metric([], scheduled_count())
    parked = GaugeMetricFamily(
        f"{NAMESPACE}_outbox_parked", "Outbox messages the relay could not publish (unknown actor, bad arguments)."
    )
    parked.add_metric([], parked_count())
    return [backlog, scheduled, parked]


def _money_path_stuck() -> GaugeMetricFamily:
    from models.services.money_path.reads import stuck_count

    family = GaugeMetricFamily(
        f"{NAMESPACE}_money_path_stuck",
        "Proposals on the money path whose step had to be re-driven or is overdue (ops: proposals stuck).",
    )
    family.add_metric([], stuck_count())
    return family


def _code_messages_unanswered(contact_settings: ContactSettings) -> GaugeMetricFamily:
    from models.services.credit.code_redrive import unanswered_count

    family = GaugeMetricFamily(
        f"{NAMESPACE}_code_messages_unanswered",
        "Verification-code messages without an outcome past contact.unanswered_message_seconds, "
        "waiting for the lifecycle sweep to send a new code.",
    )
    family.add_metric([], unanswered_count(contact_settings))
    return family


def _queue_depth(reader: QueueDepthReader) -> GaugeMetricFamily:
    family = GaugeMetricFamily(f"{NAMESPACE}_queue_depth", "Messages waiting in each broker queue.", labels=["queue"])
    for queue, depth in reader().items():
        family.add_metric([queue], depth)
    return family


_collector: BusinessCollector | None = None


def business_collector(ttl: float, contact_settings: ContactSettings) -> BusinessCollector:
    """The process's business collector (one cache per process)."""
    global _collector
    if _collector is None:
        _collector = BusinessCollector(ttl, contact_settings)
    return _collector


def prune_dead_process_files(directory: str | None = None) -> int:
    """Delete the multi-process files of processes that no longer exist (start of API or pools).

    Wiping the whole directory would also drop the files of processes still running (the API
    restarted while the pools run); this keeps those. Returns how many files were removed.
    """
    directory = directory or os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory or not os.path.isdir(directory):
        return 0
    removed = 0
    for name in os.listdir(directory):
        pid = name.rsplit("_", 1)[-1].removesuffix(".db")
        if pid.isdigit() and not _alive(int(pid)):
            os.remove(os.path.join(directory, name))
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def render(ttl: float, contact_settings: ContactSettings) -> tuple[bytes, str]:
    """The exposition text for GET /metrics and its content type (``ttl``: how long business
    figures are cached; ``contact_settings``: when a code message counts as lost)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_DefaultRegistryView())
    registry.register(business_collector(ttl, contact_settings))
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _DefaultRegistryView:
    """Exposes the default registry's metrics inside a per-scrape registry."""

    def collect(self):
        return REGISTRY.collect()

"""The worker middleware's finish line and outcome: a run that asked to run again later
(``dramatiq.Retry``) is a planned retry, not a failure; anything else raised is an error."""

import logging

import dramatiq
import pytest
from prometheus_client import REGISTRY

from rabbitmq.actor_observability import ActorObservability


def _count(outcome: str) -> float:
    labels = {"actor": "probe_actor", "queue": "probe_queue", "outcome": outcome}
    return REGISTRY.get_sample_value("consignado_actor_messages_total", labels) or 0.0


def _run(exception):
    middleware = ActorObservability()
    message = dramatiq.Message(queue_name="probe_queue", actor_name="probe_actor", args=(), kwargs={}, options={})
    middleware.before_process_message(None, message)
    middleware.after_process_message(None, message, exception=exception)


@pytest.mark.parametrize(
    ("exception", "outcome", "level", "line"),
    [
        (None, "ok", logging.INFO, "actor finish probe_actor"),
        (
            dramatiq.Retry("retry in 996 ms", delay=996),
            "retry",
            logging.INFO,
            "actor finish probe_actor: runs again later: retry in 996 ms",
        ),
        (RuntimeError("boom"), "error", logging.WARNING, "actor finish probe_actor failed: RuntimeError: boom"),
    ],
    ids=["ok", "retry", "error"],
)
def test_the_finish_line_and_the_outcome_tell_a_planned_retry_from_a_failure(exception, outcome, level, line, caplog):
    before = {name: _count(name) for name in ("ok", "retry", "error")}
    with caplog.at_level(logging.INFO, logger="actor"):
        _run(exception)
    after = {name: _count(name) for name in ("ok", "retry", "error")}
    assert {name: after[name] - before[name] for name in after} == {
        name: 1.0 if name == outcome else 0.0 for name in after
    }
    finish = [r for r in caplog.records if r.getMessage().startswith("actor finish")]
    assert [(r.levelno, r.getMessage(), r.outcome) for r in finish] == [(level, line, outcome)]

"""`outbox parked|requeue`: what ops see of rows the relay could not publish."""

import json

from models.db.outbox import OutboxMessage
from models.domain.clock import now


def run(app, *args):
    return app.test_cli_runner().invoke(args=["outbox", *args])


def _parked(actor_name="no_such_actor"):
    return OutboxMessage.create(
        actor_name=actor_name, args=["a1"], parked_at=now(), last_error=f"no actor named {actor_name!r} is declared"
    )


def test_parked_lists_each_row_with_its_error(app):
    row = _parked()
    result = run(app, "parked")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output.strip())
    assert (shown["id"], shown["actor"], shown["args"]) == (row.id, "no_such_actor", ["a1"])
    assert "no actor named" in shown["error"]


def test_requeue_hands_rows_back_to_the_relay(app):
    first, second = _parked(), _parked("another")
    assert "requeued 1 row(s)" in run(app, "requeue", first.id).output
    assert OutboxMessage.get_by_id(first.id).parked_at is None
    assert OutboxMessage.get_by_id(second.id).parked_at is not None
    assert "requeued 1 row(s)" in run(app, "requeue", "--all").output


def test_requeue_needs_ids_or_all(app):
    assert run(app, "requeue").exit_code != 0

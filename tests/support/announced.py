"""Whether a status change's event will reach its partner, as the outbox holds it."""

from models.db.outbox import OutboxMessage
from models.db.proposals import StatusChange
from models.services.webhooks import status_events


def assert_announced(change: StatusChange) -> None:
    """The change's event has its message on the outbox, or the event before it is unfinished and
    its end sends this one (``proposal_status.move``; tests/integration/actors/test_status_webhook
    follows such a chain to the partner)."""
    messages = OutboxMessage.select().where(OutboxMessage.actor_name == "deliver_status_change")
    if [change.id] in [row.args for row in messages]:
        return
    assert status_events.predecessor_unfinished(change.proposal_id, change.sequence), (
        f"change {change.id} has no message and no unfinished event before it",
        [(row.actor_name, row.args) for row in OutboxMessage.select()],
    )

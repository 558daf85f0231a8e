"""The money-path sweep: every stalled step of the money path and every pending status event is
driven again (README "Contract path", "Webhooks")."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import SCHEDULER, queue_name


# Many retries up to minutes apart: while the database is away the next slot cannot be scheduled,
# and this message is what carries the schedule over an outage (the outbox sweeper schedules it
# again too, see rabbitmq/outbox_relay.py).
@dramatiq.actor(
    actor_name=ActorName.SWEEP_MONEY_PATH.value,
    queue_name=queue_name(SCHEDULER),
    max_retries=30,
    min_backoff=5000,
    max_backoff=300000,
)
def sweep_money_path() -> None:
    """Schedule the next slot first, then re-drive the due steps and the stalled status events."""
    from models.services.money_path.redrive import redrive_due, schedule_next_sweep
    from models.services.webhooks.status_redrive import redrive_pending

    settings = runtime.current().settings
    schedule_next_sweep(money_path_settings=settings.money_path)
    redrive_due(money_path_settings=settings.money_path)
    redrive_pending(money_path_settings=settings.money_path, webhooks_settings=settings.webhooks)

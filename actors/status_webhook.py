"""Status-change webhook actor: one message per recorded status change."""
import dramatiq

from rabbitmq.queues import STATUS_WEBHOOK, queue_name


@dramatiq.actor(actor_name="deliver_status_change", queue_name=queue_name(STATUS_WEBHOOK), max_retries=0)
def deliver_status_change(status_change_id: int) -> None:
    """Record the event for the partner (delivery over HTTP: see models/services/status_events)."""
    from models.services.status_events import record_event

    record_event(status_change_id)

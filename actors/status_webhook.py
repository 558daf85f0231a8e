"""Status-change webhook actor: one message per recorded status change (see status_delivery)."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from models.services.webhooks.status_delivery import DeliveryExhausted, RetryLater, deliver
from rabbitmq.queues import STATUS_WEBHOOK, queue_name


# The schedule is ours (Retry with an exact delay; DeliveryExhausted dead-letters at once through
# throws=), so max_retries only bounds pathological duplicates: 3 scheduled retries plus re-delays.
@dramatiq.actor(
    actor_name=ActorName.DELIVER_STATUS_CHANGE.value,
    queue_name=queue_name(STATUS_WEBHOOK),
    max_retries=10,
    min_backoff=50,
    max_backoff=5000,
    throws=(DeliveryExhausted,),
)
def deliver_status_change(status_change_id: int) -> None:
    """Send the change's event to the partner (one attempt), or schedule the next one."""
    rt = runtime.current()
    try:
        deliver(
            status_change_id,
            partner_endpoints=rt.ports.partner_endpoints,
            webhooks_settings=rt.settings.webhooks,
            environment=rt.settings.environment,
            credential_environment=rt.settings.credential_environment,
        )
    except RetryLater as later:
        raise dramatiq.Retry(str(later), delay=later.delay_ms) from None

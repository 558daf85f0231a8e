"""The lifecycle sweep: every stalled status reaches its exit (README "Lifecycle")."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import SCHEDULER, queue_name


@dramatiq.actor(
    actor_name=ActorName.SWEEP_LIFECYCLE.value,
    queue_name=queue_name(SCHEDULER),
    max_retries=3,
    min_backoff=5000,
    max_backoff=60000,
)
def sweep_lifecycle() -> None:
    """Schedule the next slot first (a failing pass must not end the schedule), then settle every
    proposal whose deadline has come, run again the analyses whose run was lost and send a new
    code where a code message was lost (idempotent: each is re-checked or deduplicated)."""
    from models.services.credit.analysis_redrive import redrive_stalled_analyses
    from models.services.credit.code_redrive import redrive_lost_codes
    from models.services.lifecycle.sweep import schedule_next_sweep, sweep

    rt = runtime.current()
    settings = rt.settings
    schedule_next_sweep(lifecycle_settings=settings.lifecycle)
    sweep(
        lifecycle_settings=settings.lifecycle,
        credit_settings=settings.credit,
        contract_settings=settings.contract,
        sandbox_routes=settings.sandbox_routes,
    )
    redrive_lost_codes(
        sms=rt.ports.sms,
        messaging_app=rt.ports.messaging_app,
        contact_settings=settings.contact,
        jwt_signing_key=settings.jwt_signing_key,
        batch_size=settings.lifecycle.sweep_batch_size,
    )
    redrive_stalled_analyses(lifecycle_settings=settings.lifecycle, batch_size=settings.lifecycle.sweep_batch_size)

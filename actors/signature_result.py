"""Signature-result actor: the provider's outcome (callback or sandbox) applied to the proposal."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import SIGNATURE_RESULT, queue_name


@dramatiq.actor(
    actor_name=ActorName.HANDLE_SIGNATURE_RESULT.value,
    queue_name=queue_name(SIGNATURE_RESULT),
    max_retries=3,
    min_backoff=500,
    max_backoff=10000,
)
def handle_signature_result(process_id: str, event: str, results: dict, received_at: str | None = None) -> None:
    """PROCESS_STARTED -> IN_PROGRESS; PROCESS_FINISHED -> SIGNED or SIGNATURE_FAILED (duplicates
    ignored). ``received_at``: when the event reached us (ISO 8601; absent in older messages)."""
    from models.domain.clock import parse_instant
    from models.services.contract.signature import handle_result

    settings = runtime.current().settings
    handle_result(
        process_id,
        event,
        results,
        received_at=parse_instant(received_at) if received_at else None,
        esignature_settings=settings.esignature,
        contract_settings=settings.contract,
    )

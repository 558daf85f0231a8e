"""Contract actors: generation (PDF + signing process), the 3-minute watchdog, signature expiry
at the deadline, and releasing the providers of a contract that will never be paid."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import CONTRACT, SCHEDULER, queue_name


@dramatiq.actor(
    actor_name=ActorName.GENERATE_CONTRACT.value,
    queue_name=queue_name(CONTRACT),
    max_retries=3,
    min_backoff=1000,
    max_backoff=30000,
)
def generate_contract(contract_id: str) -> None:
    """Build and store the CCB, open the signing process, then AWAITING_SIGNATURE (idempotent)."""
    from models.services.contract.generation import generate
    from models.services.money_path.tracking import failures_noted

    rt = runtime.current()
    with failures_noted(contract_id):
        generate(
            contract_id,
            funding=rt.ports.funding,
            esignature=rt.ports.esignature,
            contract_settings=rt.settings.contract,
            ccb_settings=rt.settings.ccb,
            environment=rt.settings.environment,
        )


@dramatiq.actor(actor_name=ActorName.CONTRACT_WATCHDOG.value, queue_name=queue_name(SCHEDULER), max_retries=3)
def contract_watchdog(contract_id: str) -> None:
    """Released by the durable scheduler 3 minutes after the start: fail an unfinished generation."""
    from models.services.contract.generation import watchdog

    watchdog(contract_id)


@dramatiq.actor(actor_name=ActorName.EXPIRE_SIGNATURE.value, queue_name=queue_name(SCHEDULER), max_retries=3)
def expire_signature(contract_id: str) -> None:
    """Released at the signature deadline: an unsigned contract becomes EXPIRED."""
    from models.services.contract.signature import expire

    expire(contract_id)


@dramatiq.actor(
    actor_name=ActorName.RELEASE_CONTRACT.value,
    queue_name=queue_name(CONTRACT),
    max_retries=3,
    min_backoff=5000,
    max_backoff=300000,
)
def release_contract(contract_id: str) -> None:
    """Cancel the funding application and the signing process (best effort, retried)."""
    from models.services.contract.release import release

    ports = runtime.current().ports
    release(contract_id, esignature=ports.esignature, funding=ports.funding)

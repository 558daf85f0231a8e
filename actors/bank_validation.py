"""Bank-validation actor: the Pix directory lookup or account-ownership check behind POST
banking-data (short hybrid wait)."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import BANK_VALIDATION, queue_name


@dramatiq.actor(
    actor_name=ActorName.VALIDATE_BANK_DATA.value,
    queue_name=queue_name(BANK_VALIDATION),
    max_retries=2,
    min_backoff=200,
    max_backoff=1000,
)
def validate_bank_data(submission_id: str) -> None:
    """Confirm the submission's Pix key or account and save the data or record the refusal
    (idempotent)."""
    from models.services.banking.bank_validation import validate

    ports = runtime.current().ports
    validate(submission_id, pix_directory=ports.pix_directory, account_ownership=ports.account_ownership)

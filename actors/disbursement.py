"""After-signature actors: fraud routing and decision, payroll endorsement, and the payment.

Each one's bounded retries are not the end: the money path's step record brings the work back
(``sweep_money_path``) until the proposal is paid or closed; a failure is noted on the record."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import DISBURSEMENT, queue_name


@dramatiq.actor(
    actor_name=ActorName.PROCESS_SIGNED_CONTRACT.value,
    queue_name=queue_name(DISBURSEMENT),
    max_retries=3,
    min_backoff=1000,
    max_backoff=60000,
)
def process_signed_contract(contract_id: str) -> None:
    """SIGNED: fraud analysis when needed, else endorsement."""
    from models.services.disbursement.post_signature import route_signed
    from models.services.money_path.tracking import failures_noted

    rt = runtime.current()
    with failures_noted(contract_id):
        route_signed(contract_id, fraud=rt.ports.fraud, fraud_settings=rt.settings.fraud)


@dramatiq.actor(
    actor_name=ActorName.RUN_FRAUD_ANALYSIS.value,
    queue_name=queue_name(DISBURSEMENT),
    max_retries=3,
    min_backoff=1000,
    max_backoff=60000,
)
def run_fraud_analysis(contract_id: str) -> None:
    """PENDING_ANALYSIS -> ANALYSIS_APPROVED or ANALYSIS_REPROVED."""
    from models.services.disbursement.post_signature import decide_fraud
    from models.services.money_path.tracking import failures_noted

    with failures_noted(contract_id):
        decide_fraud(contract_id, fraud=runtime.current().ports.fraud)


@dramatiq.actor(
    actor_name=ActorName.ENDORSE_CONTRACT.value,
    queue_name=queue_name(DISBURSEMENT),
    max_retries=5,
    min_backoff=1000,
    max_backoff=300000,
)
def endorse_contract(contract_id: str) -> None:
    """Payroll endorsement (ERROR and re-queued past the maintenance window), then the payment schedule."""
    from models.services.disbursement.post_signature import endorse
    from models.services.money_path.tracking import failures_noted

    rt = runtime.current()
    with failures_noted(contract_id):
        endorse(
            contract_id,
            endorsement=rt.ports.endorsement,
            payroll_window_settings=rt.settings.payroll_window,
            disbursement_settings=rt.settings.disbursement,
        )


@dramatiq.actor(
    actor_name=ActorName.DISBURSE.value,
    queue_name=queue_name(DISBURSEMENT),
    max_retries=5,
    min_backoff=500,
    max_backoff=300000,
)
def disburse(contract_id: str) -> None:
    """Pay the customer once (idempotency key) and record DISBURSED or DISBURSEMENT_FAILED."""
    from models.services.disbursement.payment import disburse as pay
    from models.services.money_path.tracking import failures_noted

    with failures_noted(contract_id):
        pay(contract_id, funding=runtime.current().ports.funding)

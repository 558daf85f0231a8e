"""Credit analysis actors: run an analysis, the scheduled payroll auto-retry, and the give-up hook."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import CREDIT_ANALYSIS, queue_name

QUEUE = queue_name(CREDIT_ANALYSIS)


@dramatiq.actor(
    actor_name=ActorName.RUN_CREDIT_ANALYSIS.value,
    queue_name=QUEUE,
    max_retries=2,
    min_backoff=500,
    max_backoff=5000,
    on_failure=ActorName.CREDIT_ANALYSIS_GAVE_UP.value,
    time_limit=10 * 60 * 1000,
)
def run_credit_analysis(analysis_id: str) -> None:
    """Margin, engine and offers for one analysis (idempotent: a finished analysis is left alone)."""
    from models.services.credit.analysis_runner import run

    rt = runtime.current()
    run(
        analysis_id,
        payroll=rt.ports.payroll,
        credit_engine=rt.ports.credit_engine,
        credit_settings=rt.settings.credit,
        payroll_window_settings=rt.settings.payroll_window,
    )


@dramatiq.actor(
    actor_name=ActorName.AUTO_RETRY_CREDIT_ANALYSIS.value,
    queue_name=QUEUE,
    max_retries=2,
    min_backoff=500,
    max_backoff=5000,
)
def auto_retry_credit_analysis(analysis_id: str) -> None:
    """Released by the outbox scheduler when a payroll failure's automatic retry is due."""
    from models.services.credit.analysis_runner import auto_retry

    auto_retry(analysis_id)


@dramatiq.actor(actor_name=ActorName.CREDIT_ANALYSIS_GAVE_UP.value, queue_name=QUEUE, max_retries=3, min_backoff=1000)
def credit_analysis_gave_up(message_data: dict, exception_data: dict) -> None:
    """After the last retry of an unexpected error: CREDIT_ANALYSIS_FAILED (CRA-INT-001, not
    retryable through the retry route, which is for payroll and engine failures only)."""
    from models.services.credit.analysis_runner import give_up

    give_up(message_data["args"][0], exception_data.get("type", "Exception"))

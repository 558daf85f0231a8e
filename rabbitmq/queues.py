"""One queue per actor family, so ops can run and scale a worker pool for each alone."""

from models import runtime

CREDIT_ANALYSIS = "credit_analysis"
SIMULATION = "simulation"
BANK_VALIDATION = "bank_validation"
CONTRACT = "contract"
SIGNATURE_RESULT = "signature_result"
DISBURSEMENT = "disbursement"
STATUS_WEBHOOK = "status_webhook"
AUCTION_WEBHOOK = "auction_webhook"
# Deadlines released by the scheduler (signature expiry, offer expiry, maintenance-window resume).
SCHEDULER = "scheduler"

ALL_QUEUES = (
    CREDIT_ANALYSIS,
    SIMULATION,
    BANK_VALIDATION,
    CONTRACT,
    SIGNATURE_RESULT,
    DISBURSEMENT,
    STATUS_WEBHOOK,
    AUCTION_WEBHOOK,
    SCHEDULER,
)


def queue_name(family: str) -> str:
    """The broker queue of ``family`` with this environment's prefix."""
    return f"{runtime.current().settings.queue_prefix}{family}"

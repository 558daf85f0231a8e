"""POST banking-data as one use case. The submission replaces the payout destination at once (the
saved account or key is cleared in the same transaction); the new data is checked by the
bank-validation actor (a Pix key in the instant-payment directory, an account with the
account-ownership service) while the request waits for its verdict, and saved only once confirmed."""

from __future__ import annotations

from models.db.banking import BankDataSubmission
from models.domain.errors import DomainError
from models.domain.lifecycles import BankDataSubmissionState
from models.services.banking import bank_validation
from models.services.banking import disbursement_data as banking
from models.services.banking.disbursement_data import submission_key
from models.services.banking.options import PixKey, parse_banking_data
from models.services.partners.ownership import owned_proposal
from models.services.platform.proposal_status import ConcurrentChange
from models.services.platform.unit_of_work import unit_of_work
from models.services.platform.wakeups import wakeups

_TIMEOUTS = {
    bank_validation.PIX: ("PIX_DIRECTORY_TIMEOUT", "The instant-payment directory did not answer in time"),
    bank_validation.ACCOUNT: ("ACCOUNT_OWNERSHIP_TIMEOUT", "The account-ownership service did not answer in time"),
}


def submit_banking_data(origin: str, proposal_id: str, data: dict, *, wait_seconds: float) -> banking.Verdict:
    """Validate ``data`` against the origin's proposal (locked), clear the saved destination and
    queue the check, then wait up to ``wait_seconds`` for the verdict. Past the wait the submission
    is abandoned, nothing new is saved, and a 503 (``PIX_DIRECTORY_TIMEOUT`` or
    ``ACCOUNT_OWNERSHIP_TIMEOUT``) is raised; a newer submission sent meanwhile answers 409
    ``CONCURRENT_UPDATE``. A body the route refuses (400) changes nothing."""
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        banking.ensure_status_allows(proposal)
        choice = parse_banking_data(data, proposal.cpf)
        banking.supersede_pending(proposal.id)
        banking.clear_destination(proposal)
        submission = bank_validation.submit(proposal, choice)
    kind = bank_validation.PIX if isinstance(choice, PixKey) else bank_validation.ACCOUNT
    return _await_verdict(submission.id, wait_seconds, kind, proposal.id)


def _await_verdict(submission_id: str, wait_seconds: float, kind: str, proposal_id: str) -> banking.Verdict:
    row, decided = wakeups.poll_until(
        lambda: BankDataSubmission.get_by_id(submission_id),
        lambda row: row.state != BankDataSubmissionState.PENDING,
        wait_seconds,
        keys=(submission_key(submission_id),),
    )
    # A state that left PENDING is final (the first of the verdict, the abandon and a newer
    # submission wins), so a decided poll's row is the answer: no abandon, no read of its own.
    if not decided:
        if banking.abandon(submission_id):
            code, text = _TIMEOUTS[kind]
            raise DomainError(
                f"{text}; the previous banking data was cleared and nothing new was saved, try again",
                error_code=code,
                http_status=503,
            )
        row = BankDataSubmission.get_by_id(submission_id)  # decided between the last poll and the abandon
    if row.state == BankDataSubmissionState.SUPERSEDED:
        raise ConcurrentChange(proposal_id)
    return banking.Verdict(
        row.http_status, ok=row.ok, result_status=row.result_status, error_code=row.error_code, message=row.message
    )

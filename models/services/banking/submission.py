"""POST banking-data as one use case: an account is saved at once; a Pix key is confirmed in the
instant-payment directory by the bank-validation actor first, and the request waits for its verdict."""

from __future__ import annotations

from models.db.banking import BankDataSubmission
from models.domain.errors import DomainError
from models.domain.lifecycles import BankDataSubmissionState
from models.domain.statuses import Status
from models.services.banking import disbursement_data as banking
from models.services.banking import pix_validation
from models.services.banking.options import PixKey, parse_banking_data
from models.services.partners.ownership import owned_proposal
from models.services.platform.unit_of_work import unit_of_work
from models.services.platform.wakeups import wakeups


def submit_banking_data(origin: str, proposal_id: str, data: dict, *, wait_seconds: float) -> banking.Verdict:
    """Validate ``data`` against the origin's proposal (locked) and save it, or queue the Pix key's
    check and wait up to ``wait_seconds`` for the verdict. Past the wait the submission is abandoned,
    nothing is saved, and a 503 ``PIX_DIRECTORY_TIMEOUT`` is raised."""
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        banking.ensure_status_allows(proposal)
        choice = parse_banking_data(data, proposal.cpf)
        if not isinstance(choice, PixKey):
            banking.apply(proposal, choice, source="http")
            return banking.Verdict(200, ok=True, result_status=Status.BANK_DATA_SUBMITTED.value)
        submission = pix_validation.submit_pix_key(proposal, choice)
    return _await_verdict(submission.id, wait_seconds)


def _await_verdict(submission_id: str, wait_seconds: float) -> banking.Verdict:
    def decided() -> bool:
        return BankDataSubmission.get_by_id(submission_id).state != BankDataSubmissionState.PENDING

    wakeups.wait_until(decided, wait_seconds)
    if banking.abandon(submission_id):
        raise DomainError(
            "The instant-payment directory did not answer in time; nothing was saved, try again",
            error_code="PIX_DIRECTORY_TIMEOUT",
            http_status=503,
        )
    row = BankDataSubmission.get_by_id(submission_id)
    return banking.Verdict(
        row.http_status, ok=row.ok, result_status=row.result_status, error_code=row.error_code, message=row.message
    )

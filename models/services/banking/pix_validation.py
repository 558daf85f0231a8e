"""The bank-validation actor's work: confirm a Pix key in the directory, then save or refuse."""

from __future__ import annotations

import logging

from models.db.banking import BankDataSubmission
from models.domain.errors import ValidationFailed
from models.domain.lifecycles import BankDataSubmissionState
from models.external.http_base import ExternalError
from models.external.pix_directory import PixDirectory
from models.services.banking import disbursement_data as banking
from models.services.banking.options import PixKey
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import enqueue, unit_of_work

log = logging.getLogger(__name__)


def submit_pix_key(proposal, choice: PixKey) -> BankDataSubmission:
    """Record the submission and queue the directory lookup (inside unit_of_work, the proposal locked)."""
    submission = BankDataSubmission.create(
        proposal=proposal.id,
        payload={"key": choice.key, "key_type": choice.key_type, "use_pix_cpf": choice.use_pix_cpf},
    )
    enqueue(ActorName.VALIDATE_BANK_DATA, submission.id)
    return submission


def check_pix_key(choice: PixKey, cpf: str, *, pix_directory: PixDirectory, submission_id: str) -> banking.Verdict:
    """The directory's verdict on the key for ``cpf`` (503 PIX_DIRECTORY_UNAVAILABLE when it cannot
    answer); ``submission_id`` names the submission in the log line."""
    try:
        info = pix_directory.lookup(choice.key, choice.key_type, requester_document=cpf)
        return banking.pix_verdict(info, cpf)
    except ExternalError as error:
        log.warning("Pix directory lookup failed for submission %s: %s", submission_id, error)
        return banking.Verdict(
            503,
            error_code="PIX_DIRECTORY_UNAVAILABLE",
            message="The instant-payment directory is unavailable; try again shortly",
        )


def validate(submission_id: str, *, pix_directory: PixDirectory) -> None:
    """Look the key up and store the verdict; save the data when confirmed and still wanted."""
    submission = BankDataSubmission.get_or_none(BankDataSubmission.id == submission_id)
    if submission is None or submission.state != BankDataSubmissionState.PENDING:
        return  # redelivered, or the request already gave up
    choice = PixKey(submission.payload["key"], submission.payload["key_type"], submission.payload["use_pix_cpf"])
    verdict = check_pix_key(choice, submission.proposal.cpf, pix_directory=pix_directory, submission_id=submission_id)
    with unit_of_work():
        proposal = locked_proposal(submission.proposal_id)
        if verdict.ok:
            try:
                banking.ensure_status_allows(proposal)  # the proposal may have moved meanwhile
            except ValidationFailed as error:
                verdict = banking.Verdict(400, error_code=error.error_code, message=error.message)
        if banking.record_verdict(submission, verdict) and verdict.ok:
            banking.apply(proposal, choice, source="actor")

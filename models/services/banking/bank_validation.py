"""The bank-validation actor's work: confirm a Pix key in the directory, or that a traditional
account belongs to the proposal's CPF, then save the data or record the refusal."""

from __future__ import annotations

import logging
from dataclasses import asdict

from models.db.banking import BankDataSubmission
from models.domain.errors import ValidationFailed
from models.domain.lifecycles import BankDataSubmissionState
from models.external.account_ownership import AccountOwnership, BankAccount
from models.external.http_base import ExternalError
from models.external.pix_directory import PixDirectory
from models.services.banking import disbursement_data as banking
from models.services.banking.options import Account, PixKey
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import enqueue, unit_of_work

log = logging.getLogger(__name__)

ACCOUNT, PIX = "account", "pix"


def submit(proposal, choice: Account | PixKey) -> BankDataSubmission:
    """Record the submission and queue its check (inside unit_of_work, the proposal locked)."""
    if isinstance(choice, Account):
        payload = {"kind": ACCOUNT, **asdict(choice)}
    else:
        payload = {"kind": PIX, "key": choice.key, "key_type": choice.key_type, "use_pix_cpf": choice.use_pix_cpf}
    submission = BankDataSubmission.create(proposal=proposal.id, payload=payload)
    enqueue(ActorName.VALIDATE_BANK_DATA, submission.id)
    return submission


def choice_of(payload: dict) -> Account | PixKey:
    """The option a stored submission carries (rows written before accounts were checked are keys)."""
    if payload.get("kind") == ACCOUNT:
        return Account(**{name: value for name, value in payload.items() if name != "kind"})
    return PixKey(payload["key"], payload["key_type"], payload["use_pix_cpf"])


_SERVICE_NAMES = {
    "PIX_DIRECTORY_UNAVAILABLE": "The instant-payment directory",
    "ACCOUNT_OWNERSHIP_UNAVAILABLE": "The account-ownership service",
}


def _unavailable(check: str, submission_id: str, error: ExternalError, code: str) -> banking.Verdict:
    """A 503 verdict (never a guess) and a warning naming the submission."""
    log.warning("%s failed for submission %s: %s", check, submission_id, error)
    return banking.Verdict(503, error_code=code, message=f"{_SERVICE_NAMES[code]} is unavailable; try again shortly")


def check_pix_key(choice: PixKey, cpf: str, *, pix_directory: PixDirectory, submission_id: str) -> banking.Verdict:
    """The directory's verdict on the key for ``cpf`` (503 PIX_DIRECTORY_UNAVAILABLE when it cannot
    answer); ``submission_id`` names the submission in the log line."""
    try:
        info = pix_directory.lookup(choice.key, choice.key_type, requester_document=cpf)
        return banking.pix_verdict(info, cpf)
    except ExternalError as error:
        return _unavailable("Pix directory lookup", submission_id, error, "PIX_DIRECTORY_UNAVAILABLE")


def check_account(
    choice: Account, cpf: str, *, account_ownership: AccountOwnership, submission_id: str
) -> banking.Verdict:
    """The ownership service's verdict on the account for ``cpf`` (503 ACCOUNT_OWNERSHIP_UNAVAILABLE
    when it cannot answer)."""
    account = BankAccount(
        choice.bank_code,
        choice.bank_branch,
        choice.bank_branch_digit,
        choice.bank_account,
        choice.bank_account_digit,
        choice.account_type,
    )
    try:
        return banking.account_verdict(account_ownership.check(account, holder_document=cpf))
    except ExternalError as error:
        return _unavailable("Account ownership check", submission_id, error, "ACCOUNT_OWNERSHIP_UNAVAILABLE")


def validate(submission_id: str, *, pix_directory: PixDirectory, account_ownership: AccountOwnership) -> None:
    """Check the submission and store the verdict; save the data when confirmed and still wanted."""
    submission = BankDataSubmission.get_or_none(BankDataSubmission.id == submission_id)
    if submission is None or submission.state != BankDataSubmissionState.PENDING:
        return  # redelivered, or the request already gave up
    choice = choice_of(submission.payload)
    cpf = submission.proposal.cpf
    if isinstance(choice, Account):
        verdict = check_account(choice, cpf, account_ownership=account_ownership, submission_id=submission_id)
    else:
        verdict = check_pix_key(choice, cpf, pix_directory=pix_directory, submission_id=submission_id)
    with unit_of_work():
        proposal = locked_proposal(submission.proposal_id)
        if verdict.ok:
            try:
                banking.ensure_status_allows(proposal)  # the proposal may have moved meanwhile
            except ValidationFailed as error:
                verdict = banking.Verdict(400, error_code=error.error_code, message=error.message)
        if banking.record_verdict(submission, verdict) and verdict.ok:
            banking.apply(proposal, choice, source="actor")

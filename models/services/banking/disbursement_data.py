"""Saving disbursement data: status guard, the Pix directory verdict and the proposal update."""

from __future__ import annotations

from dataclasses import dataclass

from models.db.banking import BankDataSubmission
from models.db.compiled import Compiled, CompiledUpdate
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.errors import ValidationFailed
from models.domain.lifecycles import BankDataSubmissionState
from models.domain.status_machine import TRANSITIONS, Trigger, can
from models.domain.statuses import Status
from models.external import account_ownership
from models.external.pix_directory import NOT_FOUND, PixKeyInfo
from models.services.banking import banks
from models.services.banking.options import Account, PixKey
from models.services.platform import proposal_status as status
from models.services.platform.unit_of_work import notify

SAVED_MESSAGE = "Banking data saved for disbursement"
MESSAGES = {
    Status.PIX_KEY_CPF_MISMATCH: "The Pix key belongs to another CPF; ask the customer for their own key or account",
    Status.PIX_KEY_NOT_CONFIRMED: "The Pix key could not be confirmed; ask the customer for other banking data",
}


@dataclass(frozen=True)
class Verdict:
    """What POST banking-data answers: 200 ok true/false, or an error status with its code."""

    http_status: int
    ok: bool | None = None
    result_status: str | None = None
    error_code: str | None = None
    message: str = SAVED_MESSAGE


def ensure_status_allows(proposal: Proposal) -> None:
    """400 when the proposal's status does not accept banking data (spec's blocked list and earlier)."""
    if not can(Status(proposal.status), Trigger.SUBMIT_BANK_DATA):
        raise ValidationFailed(
            f"Proposal status {proposal.status} does not allow update of banking data",
            error_code="INVALID_STATUS_FOR_BANKING_DATA",
            details={
                "currentStatus": proposal.status,
                "requiredStatus": TRANSITIONS[Trigger.SUBMIT_BANK_DATA].required_status,
            },
        )


def pix_verdict(info: PixKeyInfo, cpf: str) -> Verdict:
    """Directory answer -> verdict (order: not found, other owner, not confirmed, bank not allowed)."""
    if info.lookup == NOT_FOUND:
        return Verdict(
            400,
            error_code="PIX_KEY_NOT_VALIDATED",
            message="The Pix key was not validated: it is not registered in the instant-payment directory",
        )
    if info.owner_document != cpf:
        return Verdict(
            200,
            ok=False,
            result_status=Status.PIX_KEY_CPF_MISMATCH.value,
            message=MESSAGES[Status.PIX_KEY_CPF_MISMATCH],
        )
    if not info.confirmed:
        return Verdict(
            200,
            ok=False,
            result_status=Status.PIX_KEY_NOT_CONFIRMED.value,
            message=MESSAGES[Status.PIX_KEY_NOT_CONFIRMED],
        )
    if not banks.is_authorised(info.bank_code):
        return Verdict(
            400,
            error_code="PIX_KEY_BANK_NOT_ALLOWED",
            message=f"The Pix key's bank {info.bank_code} is not accepted for disbursement",
        )
    return Verdict(200, ok=True, result_status=Status.BANK_DATA_SUBMITTED.value)


def account_verdict(result: str) -> Verdict:
    """Ownership answer -> verdict. A third-party account is refused like a third-party key, but as
    a 400: the spec keeps the 200 ``ok: false`` statuses for keys and lists "invalid banking data"
    among this route's 400s (README "Contract path")."""
    if result == account_ownership.CONFIRMED:
        return Verdict(200, ok=True, result_status=Status.BANK_DATA_SUBMITTED.value)
    if result == account_ownership.OTHER_HOLDER:
        return Verdict(
            400,
            error_code="BANK_ACCOUNT_CPF_MISMATCH",
            message="The account belongs to another holder; ask the customer for an account of their own CPF",
        )
    return Verdict(
        400,
        error_code="BANK_ACCOUNT_NOT_VALIDATED",
        message="The account was not validated: it does not exist at that bank and branch",
    )


_NO_DESTINATION: dict[str, object] = dict(
    bank_code=None,
    bank_branch=None,
    bank_branch_digit=None,
    bank_account=None,
    bank_account_digit=None,
    account_type=None,
    use_pix_cpf=False,
    pix_key=None,
    pix_key_type=None,
)


# The destination's writes, rendered once (models/db/compiled.py): a confirmed destination (every
# destination column) and its clearing by a new submission (the same columns and updated_at).
_DESTINATION = CompiledUpdate(
    Proposal,
    lambda proposal_id: Proposal.id == proposal_id,
    str,
    shapes=(tuple(_NO_DESTINATION), (*_NO_DESTINATION, "updated_at")),
)
_TOUCH: Compiled[Proposal] = Compiled(
    lambda at, proposal_id: Proposal.update(updated_at=at).where(Proposal.id == proposal_id), Proposal.updated_at, str
)


def _save_destination(proposal: Proposal, fields: dict) -> None:
    for name, value in fields.items():
        setattr(proposal, name, value)
    _DESTINATION.execute(fields, proposal.id)


def clear_destination(proposal: Proposal) -> None:
    """Forget the saved account or key (inside unit_of_work, the proposal locked): a new submission
    replaces the payout destination at once, so until it is confirmed nothing stale can be paid."""
    _save_destination(proposal, {**_NO_DESTINATION, "updated_at": now()})


def has_destination(proposal: Proposal) -> bool:
    """True when a confirmed account or Pix key is saved (what the contract prints and pays)."""
    return bool(proposal.pix_key) or bool(proposal.bank_code and proposal.bank_account)


def apply(proposal: Proposal, choice: Account | PixKey, *, source: str) -> None:
    """Save the confirmed data on the proposal and move it to BANK_DATA_SUBMITTED (inside
    unit_of_work). A Pix key clears any saved traditional fields; an account clears any saved key.
    """
    chosen: dict[str, object]
    if isinstance(choice, Account):
        chosen = dict(
            bank_code=choice.bank_code,
            bank_branch=choice.bank_branch,
            bank_branch_digit=choice.bank_branch_digit,
            bank_account=choice.bank_account,
            bank_account_digit=choice.bank_account_digit,
            account_type=choice.account_type,
        )
    else:
        chosen = dict(use_pix_cpf=choice.use_pix_cpf, pix_key=choice.key, pix_key_type=choice.key_type)
    _save_destination(proposal, {**_NO_DESTINATION, **chosen})
    if proposal.status != Status.BANK_DATA_SUBMITTED.value:  # a correction is not a status change
        status.move(proposal, Trigger.SUBMIT_BANK_DATA, source=source)
    else:
        _TOUCH.execute(now(), proposal.id)


def submission_key(submission_id: str) -> str:
    """Wake-up key the banking-data request waits on for one submission."""
    return f"bank-submission:{submission_id}"


# A submission's verdict and ends, rendered once (models/db/compiled.py): each moves it from
# PENDING only, so the first of them wins.
_RECORD_VERDICT: Compiled[BankDataSubmission] = Compiled(
    lambda http_status, ok, result_status, error_code, message, at, submission_id: BankDataSubmission.update(
        state=BankDataSubmissionState.DONE,
        http_status=http_status,
        ok=ok,
        result_status=result_status,
        error_code=error_code,
        message=message,
        finished_at=at,
    ).where(BankDataSubmission.id == submission_id, BankDataSubmission.state == BankDataSubmissionState.PENDING),
    BankDataSubmission.http_status,
    BankDataSubmission.ok,
    BankDataSubmission.result_status,
    BankDataSubmission.error_code,
    BankDataSubmission.message,
    BankDataSubmission.finished_at,
    str,
)
_PENDING_OF_PROPOSAL: Compiled[tuple] = Compiled(
    lambda proposal_id: (
        BankDataSubmission.select(BankDataSubmission.id)
        .where(BankDataSubmission.proposal == proposal_id, BankDataSubmission.state == BankDataSubmissionState.PENDING)
        .tuples()
    ),
    str,
)


def _end_pending(state: BankDataSubmissionState) -> Compiled[BankDataSubmission]:
    return Compiled(
        lambda at, submission_id: BankDataSubmission.update(state=state, finished_at=at).where(
            BankDataSubmission.id == submission_id, BankDataSubmission.state == BankDataSubmissionState.PENDING
        ),
        BankDataSubmission.finished_at,
        str,
    )


_SUPERSEDE_ONE, _ABANDON = (
    _end_pending(BankDataSubmissionState.SUPERSEDED),
    _end_pending(BankDataSubmissionState.ABANDONED),
)


def record_verdict(submission: BankDataSubmission, verdict: Verdict) -> bool:
    """Store the verdict if the request still waits (PENDING -> DONE); False when it gave up."""
    claimed = _RECORD_VERDICT.execute(
        verdict.http_status,
        verdict.ok,
        verdict.result_status,
        verdict.error_code,
        verdict.message,
        now(),
        submission.id,
    )
    notify(submission_key(submission.id))
    return claimed == 1


def supersede_pending(proposal_id: str) -> None:
    """A newer submission replaces the ones still waiting for their verdict (inside unit_of_work,
    the proposal locked): a late verdict of an older one can then never overwrite the newer data,
    and the request still waiting on it is woken to say so."""
    ids = [row[0] for row in _PENDING_OF_PROPOSAL.all(proposal_id)]
    if not ids:
        return
    if len(ids) == 1:  # the usual case; an IN list's SQL changes with its length, so more stay peewee's
        _SUPERSEDE_ONE.execute(now(), ids[0])
    else:
        BankDataSubmission.update(state=BankDataSubmissionState.SUPERSEDED, finished_at=now()).where(
            BankDataSubmission.id.in_(ids), BankDataSubmission.state == BankDataSubmissionState.PENDING
        ).execute()
    for submission_id in ids:
        notify(submission_key(submission_id))


def abandon(submission_id: str) -> bool:
    """The request stops waiting (PENDING -> ABANDONED); False when the verdict arrived first."""
    return _ABANDON.execute(now(), submission_id) == 1

"""Contact data and the SMS token: send, resend (SMS or messaging app) and validate.

Error codes (400 unless noted), documented in README "Contact and token errors":
PHONE_MISMATCH, TOKEN_NOT_FOUND, TOKEN_EXPIRED, TOO_MANY_ATTEMPTS, INVALID_TOKEN;
RESEND_COOLDOWN (409, details.retry_after_seconds); MESSAGE_NOT_SENT (503, provider down).

Each use case receives the message providers it may call (``sms``, ``messaging_app``), the
``[default.contact]`` section and the service key the codes are hashed with (``jwt_signing_key``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
from datetime import timedelta

from models.db.compiled import Compiled
from models.db.contact import ContactToken, MessageSend
from models.db.proposals import Proposal
from models.domain import calendar
from models.domain.clock import now
from models.domain.errors import DomainError, ValidationFailed
from models.domain.lifecycles import MessageDeliveryStatus
from models.domain.status_machine import TRANSITIONS, Trigger, can, next_status
from models.domain.statuses import Status
from models.external.messaging import SMS, MessagingError, MessagingPort
from models.services.partners.ownership import owned_proposal
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work
from models.settings import ContactSettings

log = logging.getLogger(__name__)

TEXT = "Your loan proposal verification code is {code}. It expires in 5 minutes. Never share it."
MASK = "******"


def hash_token(proposal_id: str, phone: str, token: str, *, jwt_signing_key: str) -> str:
    """HMAC with the service key: a leaked table does not reveal codes without the key."""
    key = jwt_signing_key.encode()
    return hmac.new(key, f"{proposal_id}:{phone}:{token}".encode(), hashlib.sha256).hexdigest()


def _active_token(proposal: Proposal) -> ContactToken | None:
    return _ACTIVE_TOKEN.first(proposal.id)


# The token steps' statements, rendered once (models/db/compiled.py): the same SQL as peewee's
# first() (LIMIT 1) and UPDATEs.
_ACTIVE_TOKEN: Compiled[ContactToken] = Compiled(
    lambda proposal_id: (
        ContactToken.select()
        .where(
            ContactToken.proposal == proposal_id,
            ContactToken.superseded_at.is_null(),
            ContactToken.consumed_at.is_null(),
        )
        .order_by(ContactToken.created_at.desc(), ContactToken.id.desc())
        .limit(1)
    ),
    str,
)
_SUPERSEDE_ACTIVE: Compiled[ContactToken] = Compiled(
    lambda at, proposal_id: ContactToken.update(superseded_at=at).where(
        ContactToken.proposal == proposal_id, ContactToken.superseded_at.is_null(), ContactToken.consumed_at.is_null()
    ),
    ContactToken.superseded_at,
    str,
)
_SEND_FAILED: Compiled[MessageSend] = Compiled(
    lambda error, send_id: MessageSend.update(delivery_status=MessageDeliveryStatus.FAILED, error=error).where(
        MessageSend.id == send_id
    ),
    MessageSend.error,
    int,
)
_SEND_SENT: Compiled[MessageSend] = Compiled(
    lambda provider_id, send_id: MessageSend.update(
        delivery_status=MessageDeliveryStatus.SENT, provider_message_id=provider_id
    ).where(MessageSend.id == send_id),
    MessageSend.provider_message_id,
    int,
)
# The cooldown's read of the latest code sent (used or not), and a validation's two writes.
_LAST_TOKEN: Compiled[ContactToken] = Compiled(
    lambda proposal_id: (
        ContactToken.select()
        .where(ContactToken.proposal == proposal_id)
        .order_by(ContactToken.created_at.desc())
        .limit(1)
    ),
    str,
)
_COUNT_ATTEMPT: Compiled[ContactToken] = Compiled(
    lambda token_id: ContactToken.update(attempts=ContactToken.attempts + 1).where(ContactToken.id == token_id), int
)
_CONSUME: Compiled[ContactToken] = Compiled(
    lambda at, token_id: ContactToken.update(consumed_at=at).where(ContactToken.id == token_id),
    ContactToken.consumed_at,
    int,
)


def _check_cooldown(proposal: Proposal, contact_settings: ContactSettings) -> None:
    last = _LAST_TOKEN.first(proposal.id)
    if last is None:
        return
    cooldown = contact_settings.resend_cooldown_seconds
    wait = (last.created_at + timedelta(seconds=cooldown) - now()).total_seconds()
    if wait > 0:
        raise DomainError(
            f"A code was sent less than {cooldown} seconds ago; wait before asking for another",
            error_code="RESEND_COOLDOWN",
            http_status=409,
            details={"retry_after_seconds": math.ceil(wait)},
        )


def issue_code(proposal: Proposal, channel: str, jwt_signing_key: str) -> tuple[ContactToken, MessageSend, str]:
    """Inside a unit of work: supersede the old code, store the new one hashed, record the send
    (QUEUED until ``deliver_code`` records its outcome)."""
    code = f"{secrets.randbelow(10**6):06d}"
    sent_at = now()
    _SUPERSEDE_ACTIVE.execute(sent_at, proposal.id)
    token = ContactToken.create(
        proposal=proposal.id,
        phone=proposal.phone,
        created_at=sent_at,
        token_hash=hash_token(proposal.id, proposal.phone, code, jwt_signing_key=jwt_signing_key),
        expires_at=calendar.sms_token_expiry(sent_at),
    )
    send = MessageSend.create(
        proposal=proposal.id,
        channel=channel,
        recipient=proposal.phone,
        purpose="token",
        text=TEXT.format(code=MASK),
        sent_at=sent_at,
    )
    return token, send, code


def _phone_used_by_others(phone, cpf):
    return Proposal.select(Proposal.id).where(Proposal.phone == phone, Proposal.cpf != cpf).limit(1)


# Every contact step runs one of them: rendered once (models/db/compiled.py).
_PHONE_USED: Compiled[Proposal] = Compiled(_phone_used_by_others, str, str)
_PHONE_USED_IN_ORIGIN: Compiled[Proposal] = Compiled(
    lambda phone, cpf, origin: _phone_used_by_others(phone, cpf).where(Proposal.origin == origin), str, str, str
)


def _ensure_phone_free(phone: str, cpf: str, *, origin: str | None = None) -> None:
    """409 when another customer's proposal (of ``origin`` only, when given) uses ``phone``."""
    used = _PHONE_USED.exists(phone, cpf) if origin is None else _PHONE_USED_IN_ORIGIN.exists(phone, cpf, origin)
    if used:
        raise DomainError("This phone is already used in another proposal", http_status=409, details={"field": "phone"})


def provider_for(channel: str, *, sms: MessagingPort, messaging_app: MessagingPort) -> MessagingPort:
    return sms if channel == SMS else messaging_app


def deliver_code(send: MessageSend, code: str, provider: MessagingPort) -> None:
    """After commit: hand the text to the provider and record the outcome on the send."""
    try:
        provider_id = provider.send(send.recipient, TEXT.format(code=code), reference=str(send.id))
    except MessagingError as error:
        _SEND_FAILED.execute(str(error)[:500], send.id)
        log.warning("token message %s not sent: %s", send.id, error.__class__.__name__)
        raise DomainError(
            "The message provider is unavailable; ask for the code again shortly",
            error_code="MESSAGE_NOT_SENT",
            http_status=503,
        ) from None
    _SEND_SENT.execute(provider_id, send.id)


def send_contact(
    origin: str,
    proposal_id: str,
    email: str,
    phone: str,
    *,
    sms: MessagingPort,
    contact_settings: ContactSettings,
    jwt_signing_key: str,
) -> ContactToken:
    """Save email and phone on the origin's proposal, move to TOKEN_SENT and send a fresh SMS code.

    Decided under the proposal's lock: the status, the cooldown and the change are one step, so a
    contact racing a token validation either lands before it (the validation then checks the new
    phone and code) or after it (refused: the phone of a validated proposal never changes).
    The email is stored lower-cased: addresses are matched case-insensitively in practice, and one
    stored case lets the listing's partial match use a plain LIKE on its trigram index.
    """
    email = email.strip().lower()
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        if proposal.status != Status.TOKEN_SENT.value:
            next_status(Status(proposal.status), Trigger.SEND_CONTACT)  # the machine's 409 before any write
        # Only the origin's own proposals here: across origins the answer would be a phone-number
        # lookup; validate-token refuses a phone in use elsewhere once the code proves it is the caller's.
        _ensure_phone_free(phone, proposal.cpf, origin=origin)
        if proposal.status == Status.TOKEN_SENT.value:
            _check_cooldown(proposal, contact_settings)
        Proposal.update(email=email, phone=phone).where(Proposal.id == proposal.id).execute()
        proposal.email, proposal.phone = email, phone
        if proposal.status != Status.TOKEN_SENT.value:  # a second contact call is not a status change
            move(proposal, Trigger.SEND_CONTACT)
        token, send, code = issue_code(proposal, SMS, jwt_signing_key)
    deliver_code(send, code, sms)
    return token


def resend(
    origin: str,
    proposal_id: str,
    channel: str,
    *,
    sms: MessagingPort,
    messaging_app: MessagingPort,
    contact_settings: ContactSettings,
    jwt_signing_key: str,
) -> ContactToken:
    """A new code by SMS or messaging app (``channel``: "sms" or "whatsapp") for the origin's
    proposal (the previous one stops working). The status and the cooldown are checked under the
    proposal's lock with the new code's creation, so parallel resends cannot skip the cooldown."""
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        if proposal.status != Status.TOKEN_SENT.value:
            raise DomainError(
                "A code can only be resent while the proposal is TOKEN_SENT",
                http_status=409,
                error_code="INVALID_STATUS_FOR_RESEND",
                details={"currentStatus": proposal.status, "requiredStatus": Status.TOKEN_SENT.value},
            )
        _check_cooldown(proposal, contact_settings)
        token, send, code = issue_code(proposal, channel, jwt_signing_key)
    deliver_code(send, code, provider_for(channel, sms=sms, messaging_app=messaging_app))
    return token


def _validation_refusal(
    proposal: Proposal, token: str, phone: str, contact_settings: ContactSettings, jwt_signing_key: str
) -> DomainError | None:
    """The refusal of a validation (inside unit_of_work, the proposal locked), or None when the
    code is right; a wrong code counts an attempt in the same transaction."""
    if not can(proposal.status, Trigger.VALIDATE_TOKEN):
        return DomainError(
            f"Token validation is not allowed from status {proposal.status}",
            error_code="INVALID_STATUS_FOR_TOKEN_VALIDATION",
            http_status=409,
            details={
                "currentStatus": proposal.status,
                "requiredStatus": TRANSITIONS[Trigger.VALIDATE_TOKEN].required_status,
            },
        )
    if phone != proposal.phone:
        return ValidationFailed(
            "phone does not match the proposal's phone", error_code="PHONE_MISMATCH", details={"field": "phone"}
        )
    active = _active_token(proposal)
    if active is None:
        return ValidationFailed(
            "No active code for this proposal; ask for a new one",
            error_code="TOKEN_NOT_FOUND",
            details={"field": "token"},
        )
    limit = contact_settings.max_token_attempts
    if active.attempts >= limit:
        return ValidationFailed(
            "Too many wrong attempts; ask for a new code", error_code="TOO_MANY_ATTEMPTS", details={"field": "token"}
        )
    if not calendar.sms_token_valid(active.created_at, now()) or now() >= active.expires_at:
        return ValidationFailed(
            "The code has expired; ask for a new one", error_code="TOKEN_EXPIRED", details={"field": "token"}
        )
    if not hmac.compare_digest(
        active.token_hash, hash_token(proposal.id, proposal.phone, token, jwt_signing_key=jwt_signing_key)
    ):
        _COUNT_ATTEMPT.execute(active.id)
        return ValidationFailed(
            "Invalid code",
            error_code="INVALID_TOKEN",
            details={"field": "token", "remaining_attempts": max(0, limit - active.attempts - 1)},
        )
    # The right code proves the phone is the caller's: only now may the answer depend on its use by
    # another customer at any origin (send_contact checked the origin's own proposals); the code
    # stays unused when it is refused.
    try:
        _ensure_phone_free(proposal.phone, proposal.cpf)
    except DomainError as in_use:
        return in_use
    _CONSUME.execute(now(), active.id)
    return None


def validate(
    origin: str, proposal_id: str, token: str, phone: str, *, contact_settings: ContactSettings, jwt_signing_key: str
) -> Proposal:
    """Check the code of the origin's proposal; returns the proposal, now TOKEN_VALIDATED.

    The whole decision runs under the proposal's lock: parallel guesses are counted one after the
    other (never more than ``max_token_attempts`` wrong codes per code), and the phone and code
    compared are those of the moment, never a contact change's half. A wrong code's attempt is
    committed even though the call fails. Once the code is right, a phone another customer uses at
    any origin is refused (409, the code stays unused).
    """
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        refusal = _validation_refusal(proposal, token, phone, contact_settings, jwt_signing_key)
        if refusal is None:
            move(proposal, Trigger.VALIDATE_TOKEN)
    if refusal is not None:
        raise refusal
    return proposal

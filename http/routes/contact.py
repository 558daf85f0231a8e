"""Contact data and the SMS token: send, validate, resend by SMS or messaging app."""

from __future__ import annotations

from models import runtime
from models.domain.clock import now
from models.external.messaging import SMS, WHATSAPP
from models.services.credit import contact
from schemas.credit import ContactRequest, ContactResponse, ResendResponse, ValidateTokenRequest, ValidateTokenResponse

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_BODY, PROPOSAL_NOT_FOUND, Blueprint

blp = Blueprint("credit_contact", __name__, description="Contact and SMS token")
BASE = "/proposals/<proposal_id>/contact"
NOT_SENT = "MESSAGE_NOT_SENT: the message provider is unavailable; ask for the code again shortly"
RESEND_CONFLICT = "RESEND_COOLDOWN (details.retry_after_seconds) or INVALID_STATUS_FOR_RESEND (details.currentStatus)"


@blp.route(BASE, methods=["POST"], endpoint="send_contact")
@blp.arguments(ContactRequest)
@blp.response(201, ContactResponse, description="Token sent by SMS; expires in 5 minutes")
@blp.errors(
    {
        400: INVALID_BODY,
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND,
        409: "Phone already used in another proposal (no errorCode, details.field phone), RESEND_COOLDOWN, or "
        "the status does not allow contact (details.currentStatus)",
        503: NOT_SENT,
    }
)
def send_contact(body, proposal_id):
    """Save email and phone and send a 6-digit code by SMS."""
    rt = runtime.current()
    token = contact.send_contact(
        current_origin(),
        proposal_id,
        body["email"].strip().lower(),
        body["phone"],
        sms=rt.ports.sms,
        contact_settings=rt.settings.contact,
        jwt_signing_key=rt.settings.jwt_signing_key,
    )
    return {"message": "Verification code sent by SMS", "phone": token.phone, "expires_at": token.expires_at}


@blp.route(BASE + "/validate-token", methods=["POST"], endpoint="validate_token")
@blp.arguments(ValidateTokenRequest)
@blp.response(200, ValidateTokenResponse)
@blp.errors(
    {
        400: INVALID_BODY + "; INVALID_TOKEN, TOKEN_EXPIRED, TOO_MANY_ATTEMPTS, TOKEN_NOT_FOUND, PHONE_MISMATCH",
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND,
        409: "INVALID_STATUS_FOR_TOKEN_VALIDATION: the proposal is not waiting for a code (details.currentStatus)",
    }
)
def validate_token(body, proposal_id):
    """Check the code; the proposal moves to TOKEN_VALIDATED."""
    settings = runtime.current().settings
    proposal = contact.validate(
        current_origin(),
        proposal_id,
        body["token"],
        body["phone"],
        contact_settings=settings.contact,
        jwt_signing_key=settings.jwt_signing_key,
    )
    return {"message": "Token validated", "proposal_id": proposal.id, "status": proposal.status, "validated_at": now()}


def _resend(proposal_id: str, channel: str) -> dict:
    rt = runtime.current()
    token = contact.resend(
        current_origin(),
        proposal_id,
        channel,
        sms=rt.ports.sms,
        messaging_app=rt.ports.messaging_app,
        contact_settings=rt.settings.contact,
        jwt_signing_key=rt.settings.jwt_signing_key,
    )
    label = "SMS" if channel == SMS else "WhatsApp"
    return {
        "message": f"New verification code sent by {label}",
        "phone": token.phone,
        "channel": channel,
        "expires_at": token.expires_at,
    }


RESEND_ERRORS = {
    400: INVALID_BODY,
    403: FORBIDDEN,
    404: PROPOSAL_NOT_FOUND,
    409: RESEND_CONFLICT,
    503: NOT_SENT,
}


@blp.route(BASE + "/resend-token", methods=["POST"], endpoint="resend_token_sms")
@blp.response(200, ResendResponse)
@blp.errors(RESEND_ERRORS)
def resend_sms(proposal_id):
    """A new code by SMS (no body); the previous code stops working."""
    return _resend(proposal_id, SMS)


@blp.route(BASE + "/resend-token/whatsapp", methods=["POST"], endpoint="resend_token_whatsapp")
@blp.response(200, ResendResponse)
@blp.errors(RESEND_ERRORS)
def resend_whatsapp(proposal_id):
    """A new code by the messaging app (no body); the previous code stops working."""
    return _resend(proposal_id, WHATSAPP)

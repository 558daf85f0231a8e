"""Contact data and the SMS token: send, validate, resend by SMS or messaging app."""

from __future__ import annotations

import flask_smorest

from models import runtime
from models.domain.clock import isoformat_z, now
from models.external.messaging import SMS, WHATSAPP
from models.services.credit import contact
from schemas.credit import ContactRequest, ContactResponse, ResendResponse, ValidateTokenRequest, ValidateTokenResponse
from schemas.errors import ErrorSchema

from ..auth import current_origin
from ..presenters.replies import reply

blp = flask_smorest.Blueprint("credit_contact", __name__, description="Contact and SMS token")
BASE = "/proposals/<proposal_id>/contact"


@blp.route(BASE, methods=["POST"])
@blp.arguments(ContactRequest)
@blp.response(201, ContactResponse, description="Token sent by SMS; expires in 5 minutes")
@blp.alt_response(409, schema=ErrorSchema, description="Phone already used in another proposal, or resend cooldown")
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
    return reply(
        {"message": "Verification code sent by SMS", "phone": token.phone, "expires_at": isoformat_z(token.expires_at)},
        201,
    )


@blp.route(BASE + "/validate-token", methods=["POST"])
@blp.arguments(ValidateTokenRequest)
@blp.response(200, ValidateTokenResponse)
@blp.alt_response(
    400,
    schema=ErrorSchema,
    description="INVALID_TOKEN, TOKEN_EXPIRED, TOO_MANY_ATTEMPTS, TOKEN_NOT_FOUND, PHONE_MISMATCH",
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
    return reply(
        {
            "message": "Token validated",
            "proposal_id": proposal.id,
            "status": proposal.status,
            "validated_at": isoformat_z(now()),
        },
        200,
    )


def _resend(proposal_id: str, channel: str):
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
    return reply(
        {
            "message": f"New verification code sent by {label}",
            "phone": token.phone,
            "channel": channel,
            "expires_at": isoformat_z(token.expires_at),
        },
        200,
    )


@blp.route(BASE + "/resend-token", methods=["POST"])
@blp.response(200, ResendResponse)
@blp.alt_response(409, schema=ErrorSchema, description="RESEND_COOLDOWN or INVALID_STATUS_FOR_RESEND")
def resend_sms(proposal_id):
    """A new code by SMS (no body); the previous code stops working."""
    return _resend(proposal_id, SMS)


@blp.route(BASE + "/resend-token/whatsapp", methods=["POST"])
@blp.response(200, ResendResponse)
@blp.alt_response(409, schema=ErrorSchema, description="RESEND_COOLDOWN or INVALID_STATUS_FOR_RESEND")
def resend_whatsapp(proposal_id):
    """A new code by the messaging app (no body); the previous code stops working."""
    return _resend(proposal_id, WHATSAPP)

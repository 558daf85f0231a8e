"""Request and response bodies of the credit path: start, contact and token, analysis,
simulation, pre-accept and the sandbox message inbox."""

from __future__ import annotations

from datetime import date

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validates

from models.domain.cpf import cpf_valid
from schemas import edge


class Body(Schema):
    class Meta:
        unknown = EXCLUDE


class StartRequest(Body):
    cpf = fields.String(
        required=True,
        validate=edge.digits(11, 11, "must be 11 digits with valid check digits"),
        metadata={"example": "52998224725"},
    )
    full_name = edge.PersonName(
        required=True,
        metadata={
            "example": "Maria da Silva",
            "description": "normalised (NFC, typographic apostrophes, single spaces) and stored upper-cased",
        },
    )
    birth_date = edge.Day(required=True, metadata={"example": "1985-04-12"})

    @validates("cpf")
    def _cpf(self, value, **kwargs):
        if not cpf_valid(value):
            raise ValidationError("must be 11 digits with valid check digits")

    @validates("birth_date")
    def _birth(self, value, **kwargs):
        from models.domain.clock import local_now

        if not date(1900, 1, 1) <= value < local_now().date():
            raise ValidationError("must be a past date from 1900-01-01 on")


class StartResponse(Schema):
    message = fields.String()
    proposal_id = fields.String()
    cpf = fields.String()
    full_name = fields.String()
    product_id = fields.String()
    status = fields.String()


class ContactRequest(Body):
    email = edge.EmailAddress(required=True, metadata={"description": "stored lower-cased"})
    phone = fields.String(
        required=True,
        validate=edge.Pattern(edge.PHONE_PATTERN, error=edge.PHONE_ERROR),
        metadata={"example": "+5511987654321"},
    )


class ContactResponse(Schema):
    message = fields.String()
    phone = fields.String()
    expires_at = fields.String()


class ResendResponse(ContactResponse):
    channel = fields.String(metadata={"description": "sms or whatsapp"})


class ValidateTokenRequest(Body):
    token = fields.String(required=True, validate=edge.digits(6, 6, "must be 6 digits"))
    phone = fields.String(required=True, validate=edge.Pattern(edge.PHONE_PATTERN, error=edge.PHONE_ERROR))


class ValidateTokenResponse(Schema):
    message = fields.String()
    proposal_id = fields.String()
    status = fields.String()
    validated_at = fields.String()

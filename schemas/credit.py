"""Request and response bodies of the credit path: start, contact and token, analysis,
simulation, pre-accept and the sandbox message inbox."""

from __future__ import annotations

import re
from datetime import date

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates

from models.domain.cpf import cpf_valid

PHONE = re.compile(r"^\+55[1-9][0-9]9[0-9]{8}$")  # +55, area code, 9-digit mobile


class Body(Schema):
    class Meta:
        unknown = EXCLUDE


class StartRequest(Body):
    cpf = fields.String(required=True, metadata={"example": "52998224725"})
    full_name = fields.String(required=True, validate=validate.Length(min=2, max=200))
    birth_date = fields.Date(required=True, metadata={"example": "1985-04-12"})

    @validates("cpf")
    def _cpf(self, value, **kwargs):
        if not cpf_valid(value):
            raise ValidationError("must be 11 digits with valid check digits")

    @validates("full_name")
    def _name(self, value, **kwargs):
        if not re.fullmatch(r"[^\W\d_]+(?:[ '.-][^\W\d_]+)*\.?", value.strip()):
            raise ValidationError("must contain letters, spaces, apostrophes, dots or hyphens only")

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
    email = fields.Email(required=True, validate=validate.Length(max=254))
    phone = fields.String(
        required=True,
        validate=validate.Regexp(PHONE, error="must be +55, a 2-digit area code and a 9-digit mobile number"),
        metadata={"example": "+5511987654321"},
    )


class ContactResponse(Schema):
    message = fields.String()
    phone = fields.String()
    expires_at = fields.String()


class ResendResponse(ContactResponse):
    channel = fields.String(metadata={"description": "sms or whatsapp"})


class ValidateTokenRequest(Body):
    token = fields.String(required=True, validate=validate.Regexp(r"^\d{6}$", error="must be 6 digits"))
    phone = fields.String(required=True)


class ValidateTokenResponse(Schema):
    message = fields.String()
    proposal_id = fields.String()
    status = fields.String()
    validated_at = fields.String()

"""Request and response bodies of the credit path: start, contact and token.

Every rule a request field is checked against is declared on it (the OpenAPI document is built
from these schemas), so a body valid by the document is never refused for its shape. CPF check
digits are the ``cpf`` format; a birth date must also be a past day (from 1900-01-01).
"""

from __future__ import annotations

from datetime import date

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates

from models.domain.cpf import cpf_valid
from models.domain.statuses import Status
from schemas.fields import Instant, JsonDay, Pattern, Uuid

PHONE_PATTERN = r"^\+55[1-9][0-9]9[0-9]{8}$"  # +55, area code, 9-digit mobile
CPF_PATTERN = r"^[0-9]{11}$"
# Letters (accented Latin included) in words joined by one space, apostrophe, dot or hyphen; a
# final dot for an abbreviation; spaces around are ignored (the name is stored trimmed).
_LETTER = "A-Za-zÀ-ÖØ-öø-ÿ"
NAME_PATTERN = rf"^ *[{_LETTER}]+(?:[ '.-][{_LETTER}]+)*\.? *$"
STATUSES = [status.value for status in Status]


class Body(Schema):
    class Meta:
        unknown = EXCLUDE


class StartRequest(Body):
    cpf = fields.String(
        required=True,
        validate=Pattern(CPF_PATTERN, error="must be 11 digits with valid check digits"),
        metadata={
            "format": "cpf",
            "description": "11 digits, no mask, with valid check digits",
            "example": "52998224725",
        },
    )
    full_name = fields.String(
        required=True,
        validate=[
            validate.Length(min=2, max=200),
            Pattern(NAME_PATTERN, error="must contain letters, spaces, apostrophes, dots or hyphens only"),
        ],
        metadata={"example": "Maria da Silva"},
    )
    birth_date = JsonDay(
        required=True, metadata={"description": "YYYY-MM-DD, a past day from 1900-01-01 on", "example": "1985-04-12"}
    )

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
    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    cpf = fields.String(required=True, metadata={"example": "52998224725"})
    full_name = fields.String(required=True, metadata={"description": "upper-cased", "example": "MARIA DA SILVA"})
    product_id = Uuid(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES})


class ContactRequest(Body):
    email = fields.Email(required=True, validate=validate.Length(max=254), metadata={"example": "maria@example.com"})
    phone = fields.String(
        required=True,
        validate=Pattern(PHONE_PATTERN, error="must be +55, a 2-digit area code and a 9-digit mobile number"),
        metadata={"example": "+5511987654321"},
    )


class ContactResponse(Schema):
    message = fields.String(required=True)
    phone = fields.String(required=True, metadata={"example": "+5511987654321"})
    expires_at = Instant(required=True, metadata={"description": "5 minutes after sending"})


class ResendResponse(ContactResponse):
    channel = fields.String(required=True, metadata={"enum": ["sms", "whatsapp"]})


class ValidateTokenRequest(Body):
    token = fields.String(
        required=True,
        validate=Pattern(r"^[0-9]{6}$", error="must be 6 digits"),
        metadata={"example": "123456"},
    )
    phone = fields.String(
        required=True,
        metadata={"description": "the phone the code was sent to", "example": "+5511987654321"},
    )


class ValidateTokenResponse(Schema):
    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES})
    validated_at = Instant(required=True)

"""Request and response bodies of the credit path: start, contact and token.

Every rule a request field is checked against is declared on it (the OpenAPI document is built
from these schemas), so a body valid by the document is never refused for its shape. CPF check
digits are the ``cpf`` format; a birth date must also be a past day (from 1900-01-01).
"""

from __future__ import annotations

from datetime import date

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validates

from models.domain.cpf import cpf_valid
from models.domain.statuses import Status
from schemas import edge
from schemas.fields import Instant, Uuid

STATUSES = [status.value for status in Status]


class Body(Schema):
    class Meta:
        unknown = EXCLUDE


class StartRequest(Body):
    cpf = fields.String(
        required=True,
        validate=edge.Pattern(edge.CPF_PATTERN, error=edge.CPF_ERROR),
        metadata={
            "format": "cpf",
            "description": "11 digits, no mask, with valid check digits",
            "example": "52998224725",
        },
    )
    full_name = edge.PersonName(required=True, metadata={"example": "Maria da Silva"})
    birth_date = edge.Day(
        required=True, metadata={"description": "YYYY-MM-DD, a past day from 1900-01-01 on", "example": "1985-04-12"}
    )

    @validates("cpf")
    def _cpf(self, value, **kwargs):
        if not cpf_valid(value):
            raise ValidationError(edge.CPF_ERROR)

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
    email = edge.EmailAddress(
        required=True, metadata={"description": "stored lower-cased", "example": "maria@example.com"}
    )
    phone = fields.String(
        required=True,
        validate=edge.Pattern(edge.PHONE_PATTERN, error=edge.PHONE_ERROR),
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
        validate=edge.digits(6, 6, "must be 6 digits"),
        metadata={"example": "123456"},
    )
    phone = fields.String(
        required=True,
        validate=edge.Pattern(edge.PHONE_PATTERN, error=edge.PHONE_ERROR),
        metadata={"description": "the phone the code was sent to", "example": "+5511987654321"},
    )


class ValidateTokenResponse(Schema):
    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES})
    validated_at = Instant(required=True)

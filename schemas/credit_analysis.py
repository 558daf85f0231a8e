"""Bodies of credit analysis, retry, simulation, pre-accept and the sandbox message inbox."""

from __future__ import annotations

from typing import ClassVar

from marshmallow import Schema, ValidationError, fields, validates_schema

from schemas import edge
from schemas.credit import STATUSES, Body
from schemas.fields import DecimalText, Instant, Money, Uuid
from schemas.offers import OfferSchema, ProductSchema, SelectedOfferSchema

# Hard bounds of the simulation inputs; the product's own limits (pricing: min/max amount and
# installments) are checked before anything is stored and answer INVALID_SIMULATION_PARAMETERS.
MAX_INSTALLMENTS = 999
MAX_LOAN_AMOUNT = 1_000_000_000


class ConsentGeolocation(Body):
    latitude = edge.Number(required=True, minimum=-90, maximum=90, metadata={"example": -23.5505})
    longitude = edge.Number(required=True, minimum=-180, maximum=180, metadata={"example": -46.6333})


class CreditAnalysisRequest(Body):
    ip = edge.IpAddress(
        required=True, metadata={"description": "the customer's IPv4 or IPv6 address", "example": "200.160.2.3"}
    )
    geolocation = fields.Nested(ConsentGeolocation, required=True)
    document_text = edge.Text(
        required=True,
        min_length=1,
        max_length=20000,
        lines=True,
        metadata={"description": "the consent text the customer accepted", "example": "I authorise the query..."},
    )
    channel = edge.Text(
        required=True,
        min_length=1,
        max_length=16,
        metadata={"description": "seen values: web, mobile, app", "example": "web"},
    )


ANALYSIS_OUTCOMES = ["OFFERS_RECEIVED", "REJECTED", "CREDIT_ANALYSIS_FAILED"]


class FriendlyMessageSchema(Schema):
    title = fields.String(required=True)
    description = fields.String(required=True)


class AnalysisResult(Schema):
    """Approved (offer, limits), rejected (rejection_reason) or technical failure (error_code)."""

    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": "The analysis's outcome: OFFERS_RECEIVED (approved), REJECTED or CREDIT_ANALYSIS_FAILED "
            "(technical failure), whatever the proposal's status is now",
            "enum": ANALYSIS_OUTCOMES,
        },
    )
    approved = fields.Boolean(required=True)
    offer = fields.Nested(OfferSchema, allow_none=True)
    insuredOffer = fields.Nested(
        OfferSchema, allow_none=True, metadata={"description": "partners with insurance; null when not approved"}
    )
    product = fields.Nested(ProductSchema, metadata={"description": "partners with insurance"})
    insuredProduct = fields.Nested(ProductSchema, metadata={"description": "partners with insurance"})
    available_margin = DecimalText(metadata={"description": "monthly payroll margin"})
    maxLoanAmount = Money()
    maxInstallments = fields.Integer()
    maxMonthlyPayment = DecimalText()
    minMonthlyPayment = Money()
    bank_skip = fields.Boolean(
        metadata={
            "description": "Whether bank validation can be skipped: always false. Fixed by the product: every "
            "disbursement destination is validated (authorised bank, Pix directory, ownership by the CPF).",
            "enum": [False],
        }
    )
    promotional = fields.Boolean(metadata={"description": "present (true) for a promotional offer"})
    rejection_reason = fields.String(
        metadata={"enum": ["NO_AVAILABLE_MARGIN", "IRREGULAR_CPF", "AGE_CRITERIA", "INSUFFICIENT_SCORE"]}
    )
    error_code = fields.String(metadata={"example": "CRA-DTP-003"})
    friendly_message = fields.Nested(FriendlyMessageSchema)
    retryable = fields.Boolean(metadata={"description": "technical failure: whether the retry route may succeed"})


class RetryResult(AnalysisResult):
    """The retry's result (available_margin is a number here, per the spec), or a message with
    status_url when the dedup window or the retry limit applies."""

    status = fields.String(
        required=True,
        metadata={
            "description": "The analysis's outcome (as in AnalysisResult); with status_url (dedup window, retry "
            "limit), the proposal's status of now",
            "enum": STATUSES,
        },
    )
    available_margin = Money(metadata={"description": "monthly payroll margin"})
    approved = fields.Boolean()
    status_url = fields.String(metadata={"description": "dedup window / retry limit: where to read the result"})


class SimulateRequest(Body):
    """Exactly one of ``installments`` (largest amount for the term) or ``loan_amount`` (term options)."""

    OPENAPI_EXTRA: ClassVar[dict] = {"oneOf": [{"required": ["installments"]}, {"required": ["loan_amount"]}]}

    installments = edge.Integer(
        minimum=1,
        maximum=MAX_INSTALLMENTS,
        metadata={"description": "within the product's limits (min_installments to max_installments)", "example": 48},
    )
    loan_amount = edge.Amount(
        minimum=0,
        maximum=MAX_LOAN_AMOUNT,
        metadata={"description": "net amount, at most two decimals, within the product's limits", "example": 5000.0},
    )
    insured = edge.Boolean(load_default=False, metadata={"description": "partners with insurance only"})

    @validates_schema
    def _exactly_one(self, data, **kwargs):
        given = [name for name in ("installments", "loan_amount") if data.get(name) is not None]
        if len(given) != 1:
            raise ValidationError(
                "send exactly one of installments or loan_amount",
                field_name="installments" if not given else "loan_amount",
            )


class SimulationResponse(Schema):
    simulation_mode = fields.String(required=True, metadata={"enum": ["BY_INSTALLMENTS", "BY_LOAN_AMOUNT"]})
    proposal_id = Uuid(required=True)
    product_id = Uuid(required=True)
    product_name = fields.String(required=True)
    total_offers = fields.Integer(required=True)
    message = fields.String(required=True)
    offers = fields.List(fields.Nested(OfferSchema), required=True)


class PreAcceptRequest(Body):
    selected_offer_id = edge.Uuid(required=True, metadata={"description": "an offer's id"})


class PreAcceptResponse(Schema):
    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES})
    selected_offer = fields.Nested(SelectedOfferSchema, required=True)
    pre_accepted_at = Instant(required=True)


class SandboxMessagesQuery(Schema):
    phone = fields.String(
        required=True,
        validate=edge.Pattern(edge.PHONE_PATTERN, error=edge.PHONE_ERROR),
        metadata={"example": "+5511987654321"},
    )


class SandboxMessage(Schema):
    proposal_id = Uuid(required=True, metadata={"description": "the proposal the code was sent for"})
    channel = fields.String(required=True, metadata={"enum": ["sms", "whatsapp", "email"]})
    text = fields.String(required=True)
    token = fields.String(required=True, allow_none=True, metadata={"description": "the code in clear"})
    sent_at = Instant(required=True)

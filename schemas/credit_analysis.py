"""Bodies of credit analysis, retry, simulation and pre-accept."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validates_schema

from schemas import edge
from schemas.credit import Body

# Hard bounds of the simulation inputs; the product's own limits (pricing: min/max amount and
# installments) are checked before anything is stored and answer INVALID_SIMULATION_PARAMETERS.
MAX_INSTALLMENTS = 999
MAX_LOAN_AMOUNT = 1_000_000_000


class ConsentGeolocation(Body):
    latitude = edge.Number(required=True, minimum=-90, maximum=90)
    longitude = edge.Number(required=True, minimum=-180, maximum=180)


class CreditAnalysisRequest(Body):
    ip = edge.IpAddress(required=True)
    geolocation = fields.Nested(ConsentGeolocation, required=True)
    document_text = edge.Text(required=True, min_length=1, max_length=20000)
    channel = edge.Text(
        required=True,
        min_length=1,
        max_length=16,
        metadata={"description": "seen values: web, mobile, app"},
    )


class AnalysisResult(Schema):
    """Approved, rejected or technical-failure body (see README for each shape)."""

    message = fields.String()
    proposal_id = fields.String()
    status = fields.String()
    approved = fields.Boolean()
    offer = fields.Dict(allow_none=True)
    insuredOffer = fields.Dict(allow_none=True)
    product = fields.Dict()
    insuredProduct = fields.Dict()
    available_margin = fields.String()
    maxLoanAmount = fields.Float()
    maxInstallments = fields.Integer()
    maxMonthlyPayment = fields.String()
    minMonthlyPayment = fields.Float()
    bank_skip = fields.Boolean()
    rejection_reason = fields.String()
    error_code = fields.String()
    friendly_message = fields.Dict()


class RetryResult(AnalysisResult):
    available_margin = fields.Float()


class SimulateRequest(Body):
    installments = edge.Integer(
        minimum=1,
        maximum=MAX_INSTALLMENTS,
        metadata={"description": "within the product's limits (min_installments to max_installments)"},
    )
    loan_amount = edge.Amount(
        minimum=0,
        maximum=MAX_LOAN_AMOUNT,
        metadata={"description": "net amount, at most two decimals, within the product's limits"},
    )
    insured = fields.Boolean(load_default=False)

    @validates_schema
    def _exactly_one(self, data, **kwargs):
        given = [name for name in ("installments", "loan_amount") if data.get(name) is not None]
        if len(given) != 1:
            raise ValidationError(
                "send exactly one of installments or loan_amount",
                field_name="installments" if not given else "loan_amount",
            )


class SimulationResponse(Schema):
    simulation_mode = fields.String()
    proposal_id = fields.String()
    product_id = fields.String()
    product_name = fields.String()
    total_offers = fields.Integer()
    message = fields.String()
    offers = fields.List(fields.Dict())


class PreAcceptRequest(Body):
    selected_offer_id = edge.Uuid(required=True)


class SelectedOffer(Schema):
    id = fields.String()
    principal_amount = fields.Float()
    installments = fields.Integer()
    installment_amount = fields.Float()


class PreAcceptResponse(Schema):
    message = fields.String()
    proposal_id = fields.String()
    status = fields.String()
    selected_offer = fields.Nested(SelectedOffer)
    pre_accepted_at = fields.String()


class SandboxMessagesQuery(Schema):
    phone = fields.String(required=True, validate=edge.Pattern(edge.PHONE_PATTERN, error=edge.PHONE_ERROR))


class SandboxMessage(Schema):
    channel = fields.String()
    text = fields.String()
    token = fields.String(allow_none=True)
    sent_at = fields.String()

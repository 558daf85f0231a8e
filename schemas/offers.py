"""The spec's Offer object (``offer``, ``insuredOffer``, ``offers[]``), its product reference and
the ``selected_offer`` summary: one schema each, used by every route that serves them."""

from marshmallow import Schema, fields

from models.domain.offer_availability import OfferStatus
from schemas.fields import Day, Instant, Money, Uuid


class CalculationDetailsSchema(Schema):
    monthly_rate = fields.Float(required=True, metadata={"description": "decimal, 0.0499 means 4.99%"})
    financed_amount = Money(required=True, metadata={"description": "includes IOF and TAC"})
    disbursement_amount = Money(required=True)
    total_processing_cost = Money(required=True, metadata={"description": "IOF + TAC"})
    calculation_method = fields.String(required=True, metadata={"example": "PRICE"})
    generated_at = Instant(required=True)


class TermsAndConditionsSchema(Schema):
    contract_type = fields.String(required=True, metadata={"example": "CCB"})
    guarantee_type = fields.String(required=True, metadata={"example": "PAYROLL_DEDUCTION"})
    early_payment_discount = fields.Boolean(required=True)
    late_payment_fee = fields.Float(required=True, metadata={"description": "percent"})
    default_interest = fields.Float(required=True, metadata={"description": "monthly, percent"})


class OfferSchema(Schema):
    """Status and is_available are those of the moment of the request."""

    id = Uuid(required=True, metadata={"description": "selected_offer_id of pre-accept"})
    proposal_id = Uuid(required=True)
    offer_type = fields.String(required=True, metadata={"enum": ["STANDARD", "INSURED"]})
    status = fields.String(required=True, metadata={"enum": [status.value for status in OfferStatus]})
    description = fields.String(required=True)
    principal_amount = Money(required=True, metadata={"description": "net amount credited to the customer"})
    interest_rate = fields.Float(required=True, metadata={"description": "monthly rate, percent", "example": 1.99})
    annual_interest_rate = fields.Float(required=True, metadata={"description": "annual rate, percent"})
    installments = fields.Integer(required=True)
    installment_amount = Money(required=True)
    total_amount = Money(required=True)
    iof_amount = Money(required=True)
    tac_amount = Money(required=True)
    insurance_amount = Money(required=True, metadata={"description": "0 without insurance"})
    first_due_date = Day(required=True)
    final_due_date = Day(required=True)
    expires_at = Instant(required=True)
    calculation_details = fields.Nested(CalculationDetailsSchema, required=True)
    terms_and_conditions = fields.Nested(TermsAndConditionsSchema, required=True)
    priority = fields.Integer(required=True)
    is_available = fields.Boolean(required=True)
    created_at = Instant(required=True)
    updated_at = Instant(required=True)


class ProductSchema(Schema):
    id = Uuid(required=True)
    name = fields.String(required=True)


class SelectedOfferSchema(Schema):
    """The ``selected_offer`` summary (listing, detail, pre-accept)."""

    id = Uuid(required=True)
    principal_amount = Money(required=True)
    installments = fields.Integer(required=True)
    installment_amount = Money(required=True)

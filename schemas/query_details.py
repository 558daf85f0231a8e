"""Response shapes of one proposal's reads (detail, analysis data, message timeline) and statistics."""

from marshmallow import Schema, fields

from models.domain.lifecycles import AnalysisOutcome, DisbursementStatus, MessageDeliveryStatus
from models.domain.signature import SignatureStatus
from schemas.fields import Day, DecimalText, Instant, Money
from schemas.offers import OfferSchema
from schemas.queries import CustomerContractSchema, ProposalItemSchema, local_day
from schemas.sandbox_clock import SandboxClockSchema


class MaskedBankingDataSchema(Schema):
    method = fields.String(metadata={"enum": ["ACCOUNT", "PIX_CPF", "PIX_KEY"]})
    bank_code = fields.String(allow_none=True)
    bank_branch = fields.String(allow_none=True)
    bank_branch_digit = fields.String(allow_none=True)
    bank_account = fields.String(allow_none=True, metadata={"description": "masked, last 4 digits and check digit"})
    account_type = fields.String(allow_none=True)
    use_pix_cpf = fields.Boolean()
    pix_key = fields.String(allow_none=True, metadata={"description": "masked, last 4 characters"})
    pix_key_type = fields.String(allow_none=True)


class GeolocationSchema(Schema):
    latitude = fields.Float()
    longitude = fields.Float()


class ConsentSchema(Schema):
    ip = fields.String()
    geolocation = fields.Nested(GeolocationSchema)
    channel = fields.String()
    captured_at = Instant()


class ConsentEvidenceSchema(ConsentSchema):
    document_text = fields.String()


class AnalysisOutcomeSchema(Schema):
    id = fields.String()
    outcome = fields.String(metadata={"enum": [outcome.value for outcome in AnalysisOutcome]})
    kind = fields.String()
    attempt = fields.Integer()
    promotional = fields.Boolean()
    available_margin = Money(allow_none=True)
    max_loan_amount = Money(allow_none=True)
    max_installments = fields.Integer(allow_none=True)
    rejection_reason = fields.String(allow_none=True)
    error_code = fields.String(allow_none=True)
    started_at = Instant()
    finished_at = Instant(allow_none=True)
    approved_at = Instant(allow_none=True)


class SignatureSchema(Schema):
    signature_id = fields.String(allow_none=True)
    unico_process_id = fields.String(allow_none=True)
    status = fields.String(allow_none=True, metadata={"enum": [status.value for status in SignatureStatus]})
    user_redirect_url = fields.String(allow_none=True)
    expires_at = Instant(allow_none=True)
    signed_at = Instant(allow_none=True)


class DisbursementSchema(Schema):
    status = fields.String(metadata={"enum": [status.value for status in DisbursementStatus]})
    amount = Money(allow_none=True)
    scheduled_for = Day(allow_none=True)
    attempts = fields.Integer()
    paid_at = Instant(allow_none=True)


class StatusChangeSchema(Schema):
    sequence = fields.Integer()
    old_status = fields.String(allow_none=True)
    new_status = fields.String()
    trigger = fields.String()
    source = fields.String(metadata={"enum": ["http", "actor", "scheduler", "ops"]})
    changed_at = Instant()


class ProposalDetailSchema(ProposalItemSchema):
    product_id = fields.String()
    rejection_reason = fields.String(allow_none=True)
    banking_data = fields.Nested(MaskedBankingDataSchema, allow_none=True)
    consent = fields.Nested(ConsentSchema, allow_none=True, metadata={"description": "latest consent"})
    credit_analysis = fields.Nested(AnalysisOutcomeSchema, allow_none=True, metadata={"description": "latest analysis"})
    offers = fields.List(
        fields.Nested(OfferSchema),
        metadata={
            "description": "offers not replaced by newer ones (spec's Offer; status and is_available as of the request)"
        },
    )
    contract = fields.Nested(CustomerContractSchema, allow_none=True, metadata={"description": "latest contract"})
    signature = fields.Nested(SignatureSchema, allow_none=True)
    disbursement = fields.Nested(DisbursementSchema, allow_none=True)
    status_history = fields.List(fields.Nested(StatusChangeSchema))
    sandbox_clock = fields.Nested(
        SandboxClockSchema,
        metadata={
            "description": "sandbox only, present once the proposal's test clock was advanced "
            "(POST /sandbox/proposals/{id}/advance): its simulated time, which its deadlines and "
            "timestamps follow"
        },
    )


class MarginSnapshotSchema(Schema):
    """What the payroll system answered at one analysis (each field null when it did not say)."""

    available_margin = DecimalText(metadata={"description": "monthly payroll-deductible margin, reais"})
    employer_document = fields.String(allow_none=True, metadata={"description": "employer's CNPJ, 14 digits"})
    employer_name = fields.String(allow_none=True, metadata={"example": "EMPRESA SANDBOX LTDA"})
    admission_date = Day(allow_none=True, metadata={"description": "start of the employment link"})
    gross_salary = DecimalText(allow_none=True, metadata={"description": "monthly gross salary, reais"})


class AnalysisRecordSchema(AnalysisOutcomeSchema):
    mode = fields.String()
    max_monthly_payment = Money(allow_none=True)
    min_monthly_payment = Money(allow_none=True)
    monthly_rate = fields.Float(allow_none=True, metadata={"description": "decimal, 0.0499 means 4.99%"})
    pod_limit_max = Money(allow_none=True)
    promotional_pod_limit_max = Money(allow_none=True)
    retryable = fields.Boolean()
    margin_snapshot = fields.Nested(
        MarginSnapshotSchema,
        allow_none=True,
        metadata={
            "description": "What the payroll system answered at this analysis (its latest attempt); null when "
            "the system was not asked (age rejection, maintenance window) or did not answer (technical failure), "
            "and for analyses recorded before it was kept"
        },
    )
    engine_result = fields.Dict(allow_none=True, metadata={"description": "credit engine answer as received"})


class AnalysisDataSchema(Schema):
    proposal_id = fields.String()
    cpf = fields.String()
    analyses = fields.List(fields.Nested(AnalysisRecordSchema), metadata={"description": "newest first"})
    consents = fields.List(fields.Nested(ConsentEvidenceSchema), metadata={"description": "newest first"})


class MessageSendSchema(Schema):
    id = fields.Integer()
    channel = fields.String(metadata={"enum": ["sms", "whatsapp", "email"]})
    purpose = fields.String()
    recipient = fields.String()
    sent_at = Instant()
    delivery_status = fields.String(metadata={"enum": [status.value for status in MessageDeliveryStatus]})
    provider_message_id = fields.String(allow_none=True)
    error = fields.String(allow_none=True)


class MessageTimelineSchema(Schema):
    proposal_id = fields.String()
    total = fields.Integer()
    messages = fields.List(fields.Nested(MessageSendSchema), metadata={"description": "oldest first; never the text"})


class StatisticsArgsSchema(Schema):
    created_from = local_day("inclusive, calendar day in America/Sao_Paulo; no bound when absent")
    created_to = local_day("inclusive, calendar day in America/Sao_Paulo; no bound when absent")


class PeriodSchema(Schema):
    created_from = Day(allow_none=True)
    created_to = Day(allow_none=True)
    timezone = fields.String()


class FunnelStepSchema(Schema):
    step = fields.String()
    count = fields.Integer(metadata={"description": "proposals that ever reached the step"})
    conversion_from_previous = fields.Float()
    conversion_from_start = fields.Float()


class AmountBucketSchema(Schema):
    count = fields.Integer()
    principal_amount = Money()
    disbursement_amount = Money()


class AmountsSchema(Schema):
    contracts = fields.Nested(AmountBucketSchema)
    signed = fields.Nested(AmountBucketSchema)
    disbursed = fields.Nested(AmountBucketSchema)


class StatisticsSchema(Schema):
    origin = fields.String()
    period = fields.Nested(PeriodSchema)
    total = fields.Integer()
    by_status = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "every status, zeros included"}
    )
    funnel = fields.List(fields.Nested(FunnelStepSchema))
    amounts = fields.Nested(AmountsSchema)

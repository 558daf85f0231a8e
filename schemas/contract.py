"""Contract generation, polling, the CCB document query and cancel bodies (spec: Contract data and the
polling route)."""

from marshmallow import Schema, fields, validate

from models.domain.signature import SignatureStatus
from models.domain.statuses import Status
from schemas import edge
from schemas.fields import Day, DecimalText, Instant, Uuid

SIGNATURE_STATUSES = [status.value for status in SignatureStatus]


# An absolute http(s) URL: host name or IPv4 address, optional port, then any non-blank path.
HTTP_URL = r"^https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?(?:[/?#][!-~]*)?$"


class ContractRequestSchema(Schema):
    signature_redirect_url = edge.Text(
        max_length=500,
        validate=[edge.Pattern(HTTP_URL, error="must be an absolute http or https URL")],
        metadata={
            "description": "Where the customer goes after signing; the provider's default page when absent",
            "example": "https://partner.example/after-signing",
        },
    )


class ContractDocumentQuery(Schema):
    version = fields.String(
        validate=validate.OneOf(["original"]),
        metadata={
            "description": "original: the unsigned CCB as generated, also after signing. Absent: the signed "
            "version once the contract is signed (the CCB plus the signature evidence page), "
            "the original before. Any other value is a 400."
        },
    )


class DigitalSignatureSchema(Schema):
    signature_id = Uuid(required=True)
    unico_process_id = fields.String(metadata={"description": "POST contract only"})
    user_redirect_url = fields.String(required=True, metadata={"format": "uri"})
    status = fields.String(required=True, metadata={"enum": SIGNATURE_STATUSES})
    expires_at = Instant(required=True)


class ContractDetailsSchema(Schema):
    principal_amount = DecimalText(required=True)
    interest_rate = DecimalText(required=True, metadata={"description": "monthly, percent", "example": "1.79"})
    installments = fields.Integer(required=True)
    total_amount = DecimalText(required=True)
    installment_amount = DecimalText(required=True)
    first_due_date = Day(required=True)
    disbursement_date = Day(required=True, allow_none=True, metadata={"description": "expected"})


class ContractDataSchema(Schema):
    contract_id = Uuid(required=True)
    status = fields.String(required=True, metadata={"example": "CONTRACT_GENERATED"})
    principal_amount = DecimalText(required=True)
    interest_rate = DecimalText(required=True, metadata={"description": "monthly, percent", "example": "1.79"})
    total_amount = DecimalText(required=True)
    installment_amount = DecimalText(required=True)
    installments = fields.Integer(required=True)
    first_due_date = Day(required=True)
    has_original_document = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether the unsigned original CCB is stored: true in every 201, which is answered "
            "only once the service has generated and stored it (GET .../contract/document?version=original "
            "serves it). The service issues the CCB itself, so there is no other original to wait for.",
            "enum": [True],
        },
    )
    user_redirect_url = fields.String(
        required=True, metadata={"format": "uri", "description": "where the customer signs"}
    )
    unico_process_id = fields.String(required=True, metadata={"description": "id of the external signing process"})
    digital_signature = fields.Nested(DigitalSignatureSchema, required=True)
    contract_details = fields.Nested(ContractDetailsSchema, required=True)


class DisbursementInfoSchema(Schema):
    disbursement_amount = DecimalText(required=True)
    disbursement_date = Day(required=True)
    disbursement_paid_at = Instant(required=True)
    issuer_application_id = fields.String(required=True, allow_none=True, metadata={"description": "CCB number"})


class ContractStatusSchema(Schema):
    proposal_id = Uuid(required=True)
    proposal_status = fields.String(required=True, metadata={"enum": [status.value for status in Status]})
    contract_id = Uuid(required=True)
    contract_status = fields.String(required=True)
    digital_signature = fields.Nested(DigitalSignatureSchema, required=True)
    disbursement = fields.Nested(DisbursementInfoSchema, metadata={"description": "once the money was paid"})


class CancelResultSchema(Schema):
    id = Uuid(required=True)
    cpf = fields.String(required=True)
    full_name = fields.String(required=True)
    status = fields.String(required=True, metadata={"enum": ["CANCELED"]})
    updated_at = Instant(required=True)

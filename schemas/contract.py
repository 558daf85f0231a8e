"""Contract generation, polling, the CCB document query, cancel and the provider callback bodies."""

from marshmallow import Schema, fields, validate


class ContractRequestSchema(Schema):
    signature_redirect_url = fields.Url(
        require_tld=False,
        schemes={"http", "https"},
        validate=validate.Length(max=500),
        metadata={"description": "Where the customer goes after signing; the provider's default page when absent"},
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
    signature_id = fields.String()
    unico_process_id = fields.String()
    user_redirect_url = fields.String()
    status = fields.String(metadata={"description": "PENDING, IN_PROGRESS, SIGNED, EXPIRED or REJECTED"})
    expires_at = fields.String()


class ContractDetailsSchema(Schema):
    principal_amount = fields.String()
    interest_rate = fields.String()
    installments = fields.Integer()
    total_amount = fields.String()
    installment_amount = fields.String()
    first_due_date = fields.String()
    disbursement_date = fields.String()


class ContractDataSchema(Schema):
    contract_id = fields.String()
    status = fields.String()
    principal_amount = fields.String()
    interest_rate = fields.String()
    total_amount = fields.String()
    installment_amount = fields.String()
    installments = fields.Integer()
    first_due_date = fields.String()
    has_original_document = fields.Boolean()
    user_redirect_url = fields.String()
    unico_process_id = fields.String()
    digital_signature = fields.Nested(DigitalSignatureSchema)
    contract_details = fields.Nested(ContractDetailsSchema)


class ContractStatusSchema(Schema):
    proposal_id = fields.String()
    proposal_status = fields.String()
    contract_id = fields.String()
    contract_status = fields.String()
    digital_signature = fields.Nested(DigitalSignatureSchema)
    disbursement = fields.Dict(
        metadata={
            "description": "disbursement_amount, disbursement_date, "
            "disbursement_paid_at, issuer_application_id; once paid"
        }
    )


class TerminalStatusSchema(Schema):
    code = fields.String(metadata={"example": "TERMINAL_PROPOSAL_STATUS"})
    message = fields.String()
    details = fields.Dict(metadata={"description": "current_status"})


class CancelResultSchema(Schema):
    id = fields.String()
    cpf = fields.String()
    full_name = fields.String()
    status = fields.String()
    updated_at = fields.String()

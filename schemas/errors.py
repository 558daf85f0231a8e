"""The specification's error body, and the contract-status terminal conflict's own body."""

from marshmallow import Schema, fields

DETAILS = (
    "What the error is about: field (the input at fault), errors (every validation message), "
    "validCodes, currentStatus, requiredStatus, reason, trigger, availableMargin, minimumRequired, "
    "retry_after_seconds, depending on the error"
)


class ErrorSchema(Schema):
    statusCode = fields.Integer(required=True, metadata={"example": 400})
    message = fields.String(required=True, metadata={"example": "cpf: must be 11 digits with valid check digits"})
    error = fields.String(required=True, metadata={"example": "Bad Request"})
    errorCode = fields.String(metadata={"example": "VALIDATION_ERROR"})
    details = fields.Dict(keys=fields.String(), metadata={"description": DETAILS, "example": {"field": "cpf"}})
    proposal_id = fields.String(metadata={"description": "the blocking proposal (start conflicts)"})
    status = fields.String(metadata={"description": "the blocking proposal's status (start conflicts)"})
    longest_overdue_days = fields.Integer(metadata={"description": "DELINQUENT_CONTRACT"})


class TerminalStatusDetailsSchema(Schema):
    current_status = fields.String(required=True, metadata={"example": "CANCELED"})


class TerminalStatusSchema(Schema):
    """409 of the contract-status query for a proposal in a terminal status (the spec's own shape)."""

    code = fields.String(required=True, metadata={"enum": ["TERMINAL_PROPOSAL_STATUS"]})
    message = fields.String(required=True)
    details = fields.Nested(TerminalStatusDetailsSchema, required=True)

"""The specification's error body."""

from marshmallow import Schema, fields


class ErrorDetailsSchema(Schema):
    field = fields.String()
    validCodes = fields.List(fields.String())
    currentStatus = fields.String()
    requiredStatus = fields.String()
    reason = fields.String()


class ErrorSchema(Schema):
    statusCode = fields.Integer(required=True)
    message = fields.String(required=True)
    error = fields.String(required=True, metadata={"example": "Bad Request"})
    errorCode = fields.String()
    details = fields.Dict(metadata={"description": "field, validCodes, currentStatus, requiredStatus, reason, ..."})
    proposal_id = fields.String()
    status = fields.String()
    longest_overdue_days = fields.Integer()

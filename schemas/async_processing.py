"""What the long-running routes share: the legacy ?async flag and the 202 acknowledgement."""

from marshmallow import Schema, fields

from schemas.fields import Instant, Uuid


class AsyncQuery(Schema):
    async_ = fields.Boolean(
        data_key="async", load_default=False, metadata={"description": "Legacy: same as the /async route"}
    )


class Acknowledgement(Schema):
    async_processing = fields.Boolean(required=True, metadata={"description": "always true", "enum": [True]})
    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": "CREDIT_ANALYSIS_IN_PROGRESS or CONTRACT_GENERATION_IN_PROGRESS "
            "(PAYROLL_SYSTEM_FAILED_AWAITING_RETRY while a retry is scheduled)",
            "enum": [
                "CREDIT_ANALYSIS_IN_PROGRESS",
                "CONTRACT_GENERATION_IN_PROGRESS",
                "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
            ],
        },
    )
    processing_started_at = Instant(required=True)
    status_url = fields.String(required=True, metadata={"description": "relative URL to poll"})
    retry_at = Instant(metadata={"description": "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY only"})

"""What the long-running routes share: the legacy ?async flag and the 202 acknowledgement."""

from marshmallow import Schema, fields


class AsyncQuery(Schema):
    async_ = fields.Boolean(
        data_key="async", load_default=False, metadata={"description": "Legacy: same as the /async route"}
    )


class Acknowledgement(Schema):
    async_processing = fields.Boolean(metadata={"description": "always true"})
    message = fields.String()
    proposal_id = fields.String()
    status = fields.String(
        metadata={
            "description": "CREDIT_ANALYSIS_IN_PROGRESS or CONTRACT_GENERATION_IN_PROGRESS "
            "(PAYROLL_SYSTEM_FAILED_AWAITING_RETRY while a retry is scheduled)"
        }
    )
    processing_started_at = fields.String(metadata={"description": "ISO 8601 UTC"})
    status_url = fields.String(metadata={"description": "relative URL to poll"})
    retry_at = fields.String(metadata={"description": "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY only"})

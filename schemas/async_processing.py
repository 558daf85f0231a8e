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
            "description": "The spec's two values: CREDIT_ANALYSIS_IN_PROGRESS (credit analysis, also "
            "while an automatic payroll retry is scheduled: see proposal_status) or "
            "CONTRACT_GENERATION_IN_PROGRESS (contract generation)",
            "enum": ["CREDIT_ANALYSIS_IN_PROGRESS", "CONTRACT_GENERATION_IN_PROGRESS"],
        },
    )
    processing_started_at = Instant(required=True)
    status_url = fields.String(required=True, metadata={"description": "relative URL to poll"})
    proposal_status = fields.String(
        metadata={
            "description": "Credit analysis only (added to the spec's acknowledgement): the proposal's "
            "status behind CREDIT_ANALYSIS_IN_PROGRESS. PAYROLL_SYSTEM_FAILED_AWAITING_RETRY means "
            "the payroll system failed and the service retries on its own at retry_at; keep polling.",
            "enum": ["CREDIT_ANALYSIS_IN_PROGRESS", "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"],
        }
    )
    retry_at = Instant(
        metadata={"description": "When the automatic retry runs; only with PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"}
    )

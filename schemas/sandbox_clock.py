"""Bodies of the sandbox test clock (POST /sandbox/proposals/{id}/advance, README "Sandbox test
clock") and the clock shown in a proposal's detail."""

from __future__ import annotations

from marshmallow import Schema, fields

from models.domain.sandbox_clock import MAX_ADVANCE_SECONDS
from models.domain.status_deadlines import Exit, Reason
from models.services.lifecycle.sandbox_clock import ANALYSIS_JOBS, CONTRACT_JOBS
from schemas import edge
from schemas.credit import STATUSES, Body
from schemas.fields import Instant, Uuid


class AdvanceRequest(Body):
    seconds = edge.Integer(
        required=True,
        minimum=1,
        maximum=MAX_ADVANCE_SECONDS,
        metadata={
            "description": "how far to move the proposal's clock forward (400 days at most per call)",
            "example": 604800,
        },
    )


class SandboxClockSchema(Schema):
    now = Instant(required=True, metadata={"description": "the proposal's simulated current instant"})
    offset_seconds = fields.Integer(
        required=True, metadata={"description": "how far the proposal's clock runs ahead of the real one"}
    )


class AppliedExitSchema(Schema):
    exit = fields.String(required=True, metadata={"enum": [e.value for e in Exit]})
    reason = fields.String(required=True, metadata={"enum": [r.value for r in Reason]})
    deadline = Instant(required=True, metadata={"description": "the deadline that came, in the proposal's time"})


class AdvanceResponse(Schema):
    proposal_id = Uuid(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES, "description": "after the exits applied here"})
    sandbox_clock = fields.Nested(SandboxClockSchema, required=True)
    released = fields.List(
        fields.String(metadata={"enum": sorted(job.name for job in (*CONTRACT_JOBS, *ANALYSIS_JOBS))}),
        required=True,
        metadata={
            "description": "scheduled work of the proposal that fell due and was handed to its workers "
            "(it runs just after the answer; its status changes arrive by webhook and in GET proposal)"
        },
    )
    exits = fields.List(
        fields.Nested(AppliedExitSchema),
        required=True,
        metadata={"description": "lifecycle timeouts applied before answering, in order"},
    )

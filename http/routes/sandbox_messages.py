"""GET /v1/sandbox/messages?phone=: the codes the sandbox "sent" (mounted only in sandbox/test)."""

from __future__ import annotations

import flask_smorest

from models import runtime
from models.domain.clock import isoformat_z
from models.services.queries.sandbox_messages import sandbox_messages
from schemas.credit_analysis import SandboxMessage as SandboxMessageSchema
from schemas.credit_analysis import SandboxMessagesQuery

from ..auth import current_origin
from ..presenters.replies import reply

if runtime.current().settings.sandbox_routes:
    blp = flask_smorest.Blueprint("sandbox_messages", __name__, description="Sandbox: messages sent to a phone")

    @blp.route("/sandbox/messages", methods=["GET"])
    @blp.arguments(SandboxMessagesQuery, location="query")
    @blp.response(200, SandboxMessageSchema(many=True), description="Newest first; only this partner's proposals")
    def list_messages(query):
        """Messages (with the code in clear) sent to ``phone`` for proposals of the token's origin."""
        rows = sandbox_messages(current_origin(), query["phone"])
        return reply(
            [{"channel": r.channel, "text": r.text, "token": r.token, "sent_at": isoformat_z(r.sent_at)} for r in rows],
            200,
        )

"""GET /v1/sandbox/messages?phone=: the codes the sandbox "sent" (mounted only in sandbox/test)."""

from __future__ import annotations

from models import runtime
from models.services.queries.sandbox_messages import sandbox_messages
from schemas.credit_analysis import SandboxMessage as SandboxMessageSchema
from schemas.credit_analysis import SandboxMessagesQuery

from ..auth import current_origin
from ..blueprint import INVALID_QUERY, Blueprint

if runtime.current().settings.sandbox_routes:
    blp = Blueprint("sandbox_messages", __name__, description="Sandbox: messages sent to a phone")

    @blp.route("/sandbox/messages", methods=["GET"], endpoint="list_sandbox_messages")
    @blp.arguments(SandboxMessagesQuery, location="query")
    @blp.response(200, SandboxMessageSchema(many=True), description="Newest first; only this partner's proposals")
    @blp.errors({400: INVALID_QUERY})
    def list_messages(query):
        """Messages (with the code in clear) sent to ``phone`` for proposals of the token's origin; each
        names its proposal, so a sandbox client can validate the code it reads here."""
        return sandbox_messages(current_origin(), query["phone"])

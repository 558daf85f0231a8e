"""Wire format shared by both outgoing webhooks: the raw body, the signature and the headers.

Every delivery carries ``X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>`` computed over
``"<t>.<raw body>"`` with the partner's ``webhook_signing_secret`` (shown and rotated by
``partners show`` / ``partners rotate-secret --webhook-signing``). Partners verify it and reject
stale ``t`` values to stop replays by third parties.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid

from models.db.partners import Partner
from models.domain.clock import now
from models.services.partners.accounts import new_signing_secret, update_partner

# The spec's field order (the stored payload comes back with sorted keys); nested objects too.
STATUS_FIELD_ORDER = (
    ("origin", ("code", "name")),
    ("timestamp", None),
    ("event_type", None),
    ("proposal_id", None),
    ("proposal_data", ("cpf", "phone", "created_at", "updated_at")),
    ("status_change", ("old_status", "new_status")),
)
AUCTION_FIELD_ORDER = (("document", None), ("name", None), ("available_balance", None), ("installment_quantity", None))


def raw_body(payload: dict, order: tuple) -> bytes:
    """The exact bytes sent: the spec's fields in the spec's order, compact UTF-8 JSON; identical
    for every attempt and replay of a delivery."""
    ordered = {key: ({k: payload[key][k] for k in nested} if nested else payload[key]) for key, nested in order}
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def signature(secret: str, body: bytes, timestamp: int) -> str:
    """``t=<timestamp>,v1=<hex>`` for ``body`` (what the partner recomputes to verify)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def signing_secret(partner: Partner) -> str:
    """The partner's secret, created on first use for partners onboarded without one."""
    if not partner.webhook_signing_secret:
        update_partner(partner, webhook_signing_secret=new_signing_secret())
    return partner.webhook_signing_secret


def common_headers(partner: Partner, body: bytes) -> dict[str, str]:
    """Content type, a fresh request id and a fresh signature (new for every attempt and replay)."""
    return {
        "Content-Type": "application/json",
        "X-Request-Id": uuid.uuid4().hex,
        "X-Signature": signature(signing_secret(partner), body, int(now().timestamp())),
    }


def status_auth_headers(partner: Partner) -> dict[str, str]:
    """The auth mode chosen at onboarding: none, an API key in its named header, or a bearer token."""
    if partner.webhook_auth_mode == "api_key" and partner.webhook_auth_value:
        return {partner.webhook_auth_header or "x-api-key": partner.webhook_auth_value}
    if partner.webhook_auth_mode == "bearer" and partner.webhook_auth_value:
        return {"Authorization": f"Bearer {partner.webhook_auth_value}"}
    return {}

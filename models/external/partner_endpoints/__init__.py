"""Partner webhook endpoints (status-change and auction webhooks): port and adapters."""

from __future__ import annotations

from models.external.partner_endpoints.port import EndpointResponse, PartnerEndpoints
from models.settings import current

_override: PartnerEndpoints | None = None
_http: PartnerEndpoints | None = None

__all__ = ["EndpointResponse", "PartnerEndpoints", "get_partner_endpoints", "use_partner_endpoints"]


def get_partner_endpoints() -> PartnerEndpoints:
    """The configured sender: real HTTP unless ``webhooks.transport`` is "recording" (or overridden).

    HTTP is the default even in sandbox mode: partners trying the sandbox run their own receivers.
    """
    global _http
    if _override is not None:
        return _override
    settings = current().webhooks
    if settings.transport == "recording":
        from models.external.partner_endpoints.sandbox import RecordingPartnerEndpoints

        return use_partner_endpoints(RecordingPartnerEndpoints())
    if _http is None:
        from models.external.partner_endpoints.http_adapter import HttpPartnerEndpoints

        _http = HttpPartnerEndpoints(
            connect_timeout=settings.connect_timeout_seconds, snippet_chars=settings.response_snippet_chars
        )
    return _http


def use_partner_endpoints(endpoints: PartnerEndpoints | None) -> PartnerEndpoints | None:
    """Replace the sender (tests, benchmarks); None restores the configured one."""
    global _override
    _override = endpoints
    return endpoints

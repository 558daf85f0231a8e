"""Partner webhook endpoints (status-change and auction webhooks): port and adapters (built by
ports.py: real HTTP unless ``webhooks.transport`` is "recording")."""

from __future__ import annotations

from models.external.partner_endpoints.port import EndpointResponse, PartnerEndpoints

__all__ = ["EndpointResponse", "PartnerEndpoints"]

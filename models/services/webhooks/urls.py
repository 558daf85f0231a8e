"""Partner URLs: HTTPS in production and never a private or loopback address (SSRF)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit


def _resolves_to_internal(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror:
        return False  # unresolvable now: delivery will fail and be retried, not a security issue
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if (
            address.is_private
            or address.is_loopback
            or address.is_link_local
            or address.is_reserved
            or address.is_multicast
            or address.is_unspecified
        ):
            return True
    return False


def validate_partner_url(url: str, *, environment: str) -> str | None:
    """A problem description, or None when ``url`` may receive deliveries in ``environment`` (the
    APP_ENV this instance runs: ``settings.environment``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an absolute http(s) URL"
    if environment in ("sandbox", "test"):
        return None  # local receivers (http://127.0.0.1) are how partners try the sandbox
    if parts.scheme != "https":
        return "must use HTTPS outside the sandbox"
    if _resolves_to_internal(parts.hostname):
        return "resolves to a private or loopback address, which production never calls"
    return None

"""Partner URLs: absolute http(s), HTTPS outside the sandbox, and never a non-public address (SSRF).

Two moments check a URL. When ops set it (``validate_partner_url``) the host is resolved and every
address it resolves to must be public; an unresolvable host is refused. Before each send
(``static_problem``) only what needs no DNS is checked here: the sender resolves the host once,
refuses a non-public answer and connects to the address it checked
(models/external/partner_endpoints/), so a DNS answer changed in between cannot redirect it.
Sandbox and test accept any http(s) URL: partners try the sandbox with local receivers.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from models.domain.public_address import NOT_PUBLIC, address_allowed, literal_address
from models.external.partner_endpoints.addresses import RefusedAddress, Resolver, checked_address, system_resolver
from models.settings import LOCAL_ENVIRONMENTS


def static_problem(url: str, *, environment: str) -> str | None:
    """A problem found without DNS, or None: not absolute http(s); outside the sandbox, not HTTPS or
    a literal non-public address. ``environment``: the APP_ENV this instance runs."""
    try:
        parts = urlsplit(url)
        hostname, _ = parts.hostname, parts.port  # a malformed port raises here
    except ValueError:
        return "must be an absolute http(s) URL"
    if parts.scheme not in ("http", "https") or not hostname:
        return "must be an absolute http(s) URL"
    if environment in LOCAL_ENVIRONMENTS:
        return None  # local receivers (http://127.0.0.1) are how partners try the sandbox
    if parts.scheme != "https":
        return "must use HTTPS outside the sandbox"
    literal = literal_address(hostname)
    if literal is not None and not address_allowed(literal):
        return NOT_PUBLIC
    return None


def validate_partner_url(url: str, *, environment: str, resolver: Resolver = system_resolver) -> str | None:
    """A problem description, or None when ``url`` may receive deliveries in ``environment``; outside
    the sandbox the host must resolve, and only to public addresses (ops setting a URL)."""
    problem = static_problem(url, environment=environment)
    if problem or environment in LOCAL_ENVIRONMENTS:
        return problem
    parts = urlsplit(url)
    try:
        checked_address(parts.hostname or "", parts.port or 443, resolver, public_only=True)
    except RefusedAddress as refusal:
        return str(refusal)
    return None

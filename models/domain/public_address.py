"""Which network addresses the service may call on a partner's behalf (webhooks): the SSRF rule.

Outside the sandbox and the tests a webhook goes only to global unicast addresses (``ipaddress``'s
``is_global``: private, loopback, link-local, shared 100.64.0.0/10, documentation, reserved and
multicast ranges are refused), including the IPv4 address embedded in an IPv6 one (mapped, NAT64,
6to4, Teredo), which a gateway would reach on our behalf.
"""

from __future__ import annotations

import ipaddress

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

NOT_PUBLIC = "resolves to a private, loopback or otherwise non-public address"
NOT_RESOLVED = "does not resolve"
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    embedded = [address.ipv4_mapped, address.sixtofour]
    if address.teredo:
        embedded.extend(address.teredo)
    if any(address in network for network in _NAT64):
        embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [v4 for v4 in embedded if v4 is not None]


def address_allowed(address: IpAddress) -> bool:
    """True for a global unicast address whose embedded IPv4 address, if any, is global too."""
    if not address.is_global or address.is_multicast:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        return all(address_allowed(v4) for v4 in _embedded_ipv4(address))
    return True


def literal_address(host: str) -> IpAddress | None:
    """``host`` as an IP address when it is one (``[::1]`` brackets removed), else None."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None

"""Which network addresses a partner's webhook may reach, and the one resolution a send relies on.

Outside the sandbox and the tests a webhook goes only to global unicast addresses (``ipaddress``'s
``is_global``: private, loopback, link-local, shared 100.64.0.0/10, documentation, reserved and
multicast ranges are refused), including the IPv4 address embedded in an IPv6 one (mapped, NAT64,
6to4, Teredo), which a gateway would reach on our behalf. A host name is resolved once; the sender
connects to the address that was checked (``http_adapter``), so a DNS answer that changes between
the check and the connection (rebinding) cannot redirect it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# (host, port) -> the addresses it resolves to, as text; raises OSError when it does not resolve.
Resolver = Callable[[str, int], list[str]]

NOT_PUBLIC = "resolves to a private, loopback or otherwise non-public address"
NOT_RESOLVED = "does not resolve"
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


class RefusedAddress(Exception):
    """The host does not resolve, or resolves to an address webhooks may not reach."""


def system_resolver(host: str, port: int) -> list[str]:
    """The operating system's answer (``getaddrinfo``), in its order, without duplicates."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


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


def checked_address(host: str, port: int, resolver: Resolver, *, public_only: bool) -> str:
    """The one address to connect to for ``host``: the first it resolves to. With ``public_only``
    every address it resolves to must be allowed (a host answering both a public and a private
    address is refused), and a host that does not resolve is refused too."""
    try:
        answers = [ipaddress.ip_address(text.split("%", 1)[0]) for text in resolver(host, port)]
    except (OSError, UnicodeError, ValueError):
        raise RefusedAddress(NOT_RESOLVED) from None
    if not answers:
        raise RefusedAddress(NOT_RESOLVED)
    if public_only and not all(address_allowed(address) for address in answers):
        raise RefusedAddress(NOT_PUBLIC)
    return str(answers[0])


def literal_address(host: str) -> IpAddress | None:
    """``host`` as an IP address when it is one (``[::1]`` brackets removed), else None."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None

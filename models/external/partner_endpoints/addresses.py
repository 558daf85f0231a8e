"""The one resolution a webhook send relies on, checked against the domain's address rule
(models/domain/public_address.py).

A host name is resolved once; the sender connects to the address that was checked
(``http_adapter``), so a DNS answer that changes between the check and the connection (rebinding)
cannot redirect it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

from models.domain.public_address import NOT_PUBLIC, NOT_RESOLVED, address_allowed

# (host, port) -> the addresses it resolves to, as text; raises OSError when it does not resolve.
Resolver = Callable[[str, int], list[str]]


class RefusedAddress(Exception):
    """The host does not resolve, or resolves to an address webhooks may not reach."""


def system_resolver(host: str, port: int) -> list[str]:
    """The operating system's answer (``getaddrinfo``), in its order, without duplicates."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


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

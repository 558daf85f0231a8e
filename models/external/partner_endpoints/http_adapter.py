"""requests-based adapter: explicit timeouts, certificates verified, no redirects followed, and every
connection made to the address that was checked (``addresses.py``).

The host name is resolved once per attempt; outside the sandbox and the tests (``public_only``) an
unresolvable host or one resolving to a non-public address is refused without connecting. The
request then goes to that address while the URL keeps its host name, so the ``Host`` header and,
over TLS, the SNI name and the certificate check use the name (``PinnedAddressAdapter``): a DNS
answer that changes between the check and the connection cannot redirect the request.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from models.external.partner_endpoints.addresses import RefusedAddress, Resolver, checked_address, system_resolver
from models.external.partner_endpoints.port import EndpointResponse, PartnerEndpoints

# Attribute of a PreparedRequest naming the address to connect to.
PINNED_ADDRESS = "pinned_address"
DEFAULT_PORTS = {"http": 80, "https": 443}


class PinnedAddressAdapter(HTTPAdapter):
    """Opens connections to the request's pinned address, never to what the host name resolves to
    now; a request without a pinned address is refused."""

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        pinned = getattr(request, PINNED_ADDRESS, None)
        if pinned is None:
            raise ValueError("no checked address for this request")
        hostname = host_params["host"]
        host_params["host"] = pinned
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = hostname  # SNI
            pool_kwargs["assert_hostname"] = hostname  # the certificate must name the host, not the address
        return host_params, pool_kwargs


class HttpPartnerEndpoints(PartnerEndpoints):
    """Real POSTs. Timeouts, refused connections, DNS and certificate errors become ``error``.

    ``public_only``: refuse unresolvable hosts and non-public addresses (every environment but
    sandbox and test). ``resolver`` and ``verify`` (a CA bundle) are for tests."""

    def __init__(
        self,
        *,
        connect_timeout: float = 5.0,
        snippet_chars: int = 300,
        public_only: bool = True,
        resolver: Resolver = system_resolver,
        verify: bool | str = True,
    ) -> None:
        self.session = requests.Session()
        self.session.trust_env = False  # a proxy from the environment must not see partner payloads
        self.session.verify = verify
        adapter = PinnedAddressAdapter()
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.connect_timeout = connect_timeout
        self.snippet_chars = snippet_chars
        self.public_only = public_only
        self.resolver = resolver

    def post(self, url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> EndpointResponse:
        # Both clock readings stay in this frame: freezegun (tests) decides real or frozen time by
        # call depth, and a mixed pair would make a nonsense latency.
        started = time.monotonic()
        status, snippet, error = None, None, None
        try:
            request = self._pinned_request(url, body, headers)
            # stream=True: only the first snippet_chars of the answer are read (the body is ignored).
            with self.session.send(
                request,
                allow_redirects=False,
                stream=True,
                timeout=(min(self.connect_timeout, timeout), timeout),
            ) as response:
                status, snippet = response.status_code, self._read_snippet(response)
        except RefusedAddress as refusal:
            error = f"refused URL: {refusal}" if self.public_only else f"connection error: host {refusal}"
        except requests.exceptions.SSLError as failure:
            error = f"certificate error: {_short(failure)}"
        except requests.exceptions.Timeout:
            error = f"timeout after {timeout:g}s"
        except requests.exceptions.ConnectionError as failure:
            error = f"connection error: {_short(failure)}"
        except requests.exceptions.RequestException as failure:
            error = f"request error: {_short(failure)}"
        latency_ms = max(0, int((time.monotonic() - started) * 1000))
        return EndpointResponse(status, error, latency_ms, snippet)

    def _pinned_request(self, url: str, body: bytes, headers: dict[str, str]) -> requests.PreparedRequest:
        """The prepared POST, its host resolved and checked once and the address pinned on it."""
        parts = urlsplit(url)
        if not parts.hostname or parts.scheme not in DEFAULT_PORTS:
            raise requests.exceptions.InvalidURL(f"not an absolute http(s) URL: {url[:100]}")
        port = parts.port or DEFAULT_PORTS[parts.scheme]
        address = checked_address(parts.hostname, port, self.resolver, public_only=self.public_only)
        request = self.session.prepare_request(requests.Request("POST", url, data=body, headers=headers))
        # The connection goes to the address; the request still names the host (virtual hosting).
        request.headers["Host"] = parts.netloc.rpartition("@")[2]
        setattr(request, PINNED_ADDRESS, address)
        return request

    def _read_snippet(self, response: requests.Response) -> str:
        chunks, size = [], 0
        for chunk in response.iter_content(chunk_size=1024):
            chunks.append(chunk)
            size += len(chunk)
            if size >= self.snippet_chars:
                break
        return b"".join(chunks)[: self.snippet_chars].decode("utf-8", "replace")


def _short(error: Exception) -> str:
    return str(error)[:200]

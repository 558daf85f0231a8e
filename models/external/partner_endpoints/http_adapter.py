"""urllib3-based adapter: explicit timeouts, certificates verified, no redirects followed, and every
connection made to the address that was checked (``addresses.py``).

The host name is resolved once per attempt; outside the sandbox and the tests (``public_only``) an
unresolvable host or one resolving to a non-public address is refused without connecting. The
request then goes to that address while it keeps its host name: the ``Host`` header and, over TLS,
the SNI name and the certificate check use the name (a connection pool per address and name). A
DNS answer that changes between the check and the connection cannot redirect the request.

urllib3's pools are used directly: through ``requests`` the same POST cost about a third of the
webhooks pool's CPU (session merging, hooks, response objects; BENCHMARKS.md). What a partner
receives is unchanged: the same request headers as before (``requests``' defaults, among them
its User-Agent and keep-alive), a connection kept open when the answer was read to its end.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import certifi
import requests
import urllib3
from urllib3.exceptions import HTTPError, NewConnectionError, ProtocolError, SSLError, TimeoutError

from models.external.partner_endpoints.addresses import RefusedAddress, Resolver, checked_address, system_resolver
from models.external.partner_endpoints.port import EndpointResponse, PartnerEndpoints

DEFAULT_PORTS = {"http": 80, "https": 443}
# The headers every POST carried when it went through requests (User-Agent, Accept-Encoding, Accept,
# Connection: keep-alive), kept so partners see the same requests; the caller's headers override them.
BASE_HEADERS = dict(requests.utils.default_headers())
SNIPPET_CHUNK = 1024


class InvalidUrl(ValueError):
    """Not an absolute http(s) URL."""


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
        tls = (
            {"cert_reqs": "CERT_REQUIRED", "ca_certs": certifi.where() if verify is True else verify}
            if verify
            else {"cert_reqs": "CERT_NONE"}
        )
        # Ten pools of ten connections, as requests' adapter kept; a proxy from the environment is
        # never used (partner payloads go straight to the partner).
        self.pools = urllib3.PoolManager(num_pools=10, maxsize=10, **tls)
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
            status, snippet = self._post(url, body, headers, timeout)
        except RefusedAddress as refusal:
            error = f"refused URL: {refusal}" if self.public_only else f"connection error: host {refusal}"
        except InvalidUrl as invalid:
            error = f"request error: {invalid}"
        except SSLError as failure:
            error = f"certificate error: {_short(failure)}"
        except NewConnectionError as failure:  # before TimeoutError: urllib3 derives it from a timeout
            error = f"connection error: {_short(failure)}"
        except TimeoutError:
            error = f"timeout after {timeout:g}s"
        except (ProtocolError, OSError) as failure:
            error = f"connection error: {_short(failure)}"
        except HTTPError as failure:
            error = f"request error: {_short(failure)}"
        latency_ms = max(0, int((time.monotonic() - started) * 1000))
        return EndpointResponse(status, error, latency_ms, snippet)

    def _post(self, url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, str]:
        parts = urlsplit(url)
        if not parts.hostname or parts.scheme not in DEFAULT_PORTS:
            raise InvalidUrl(f"not an absolute http(s) URL: {url[:100]}")
        port = parts.port or DEFAULT_PORTS[parts.scheme]
        address = checked_address(parts.hostname, port, self.resolver, public_only=self.public_only)
        pool_kwargs = {}
        if parts.scheme == "https":
            # SNI and the certificate check use the name, not the address connected to.
            pool_kwargs = {"server_hostname": parts.hostname, "assert_hostname": parts.hostname}
        pool = self.pools.connection_from_host(address, port, parts.scheme, pool_kwargs=pool_kwargs)
        # The connection goes to the address; the request still names the host (virtual hosting).
        sent_headers = {**BASE_HEADERS, **headers, "Host": parts.netloc.rpartition("@")[2]}
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        response = pool.urlopen(
            "POST",
            target,
            body=body,
            headers=sent_headers,
            retries=False,
            redirect=False,
            assert_same_host=False,
            preload_content=False,
            timeout=urllib3.Timeout(connect=min(self.connect_timeout, timeout), read=timeout),
        )
        try:
            return response.status, self._read_snippet(response)
        finally:
            response.release_conn()

    def _read_snippet(self, response: urllib3.BaseHTTPResponse) -> str:
        """The answer's first ``snippet_chars`` characters. An answer read to its end leaves the
        connection open for the next POST; a longer one is not read further and its connection is
        closed."""
        chunks, size = [], 0
        for chunk in response.stream(SNIPPET_CHUNK, decode_content=True):
            chunks.append(chunk)
            size += len(chunk)
            if size >= self.snippet_chars:
                response.close()  # unread bytes left: the connection cannot carry another request
                break
        return b"".join(chunks)[: self.snippet_chars].decode("utf-8", "replace")


def _short(error: Exception) -> str:
    return str(error)[:200]

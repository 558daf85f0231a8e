"""requests-based adapter: explicit timeouts, certificates verified, no redirects followed."""

from __future__ import annotations

import time

import requests

from models.external.partner_endpoints.port import EndpointResponse, PartnerEndpoints


class HttpPartnerEndpoints(PartnerEndpoints):
    """Real POSTs. Timeouts, refused connections, DNS and certificate errors become ``error``."""

    def __init__(self, *, connect_timeout: float = 5.0, snippet_chars: int = 300) -> None:
        self.session = requests.Session()
        self.session.trust_env = False  # a proxy from the environment must not see partner payloads
        self.connect_timeout = connect_timeout
        self.snippet_chars = snippet_chars

    def post(self, url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> EndpointResponse:
        # Both clock readings stay in this frame: freezegun (tests) decides real or frozen time by
        # call depth, and a mixed pair would make a nonsense latency.
        started = time.monotonic()
        status, snippet, error = None, None, None
        try:
            # stream=True: only the first snippet_chars of the answer are read (the body is ignored).
            with self.session.post(
                url,
                data=body,
                headers=headers,
                allow_redirects=False,
                stream=True,
                timeout=(min(self.connect_timeout, timeout), timeout),
            ) as response:
                status, snippet = response.status_code, self._read_snippet(response)
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

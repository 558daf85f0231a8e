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
        started = time.monotonic()
        deadline = started + timeout
        try:
            # stream=True so the total read is bounded by the deadline, not per socket read.
            with self.session.post(url, data=body, headers=headers, allow_redirects=False, stream=True,
                                   timeout=(min(self.connect_timeout, timeout), timeout)) as response:
                snippet = self._read_snippet(response, deadline)
                return EndpointResponse(response.status_code, None, _ms(started), snippet)
        except requests.exceptions.SSLError as error:
            return EndpointResponse(None, f"certificate error: {_short(error)}", _ms(started))
        except requests.exceptions.Timeout:
            return EndpointResponse(None, f"timeout after {timeout:g}s", _ms(started))
        except requests.exceptions.ConnectionError as error:
            return EndpointResponse(None, f"connection error: {_short(error)}", _ms(started))
        except requests.exceptions.RequestException as error:
            return EndpointResponse(None, f"request error: {_short(error)}", _ms(started))

    def _read_snippet(self, response: requests.Response, deadline: float) -> str:
        chunks, size = [], 0
        for chunk in response.iter_content(chunk_size=1024):
            chunks.append(chunk)
            size += len(chunk)
            if size >= self.snippet_chars or time.monotonic() > deadline:
                break
        return b"".join(chunks)[: self.snippet_chars].decode("utf-8", "replace")


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _short(error: Exception) -> str:
    return str(error)[:200]

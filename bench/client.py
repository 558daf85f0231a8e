"""A partner's HTTP client for the whole flow, shared by the full-flow benchmark and the demo.

Each step is one function of the flow (start ... disbursed). A route that is not deployed yet
raises RouteMissing(step) so callers can run the steps that exist and say which are missing.
"""

from __future__ import annotations

import random
import time
from urllib.parse import urljoin

import requests

ANALYSIS_BODY = {
    "ip": "127.0.0.1",
    "geolocation": {"latitude": -23.5505, "longitude": -46.6333},
    "document_text": "I authorise the payroll margin query and the credit analysis.",
    "channel": "web",
}
BANK_ACCOUNT = {
    "bank_code": "001",
    "bank_branch": "1234",
    "bank_account": "123456",
    "bank_account_digit": "7",
    "account_type": "checking",
}


class RouteMissing(Exception):
    """The service does not serve this step's route (not deployed or not merged yet)."""

    def __init__(self, step: str, detail: str) -> None:
        super().__init__(f"{step}: {detail}")
        self.step = step


class StepFailed(Exception):
    """The step answered, but not as the happy path expects."""

    def __init__(self, step: str, response: requests.Response | None, detail: str = "") -> None:
        body = response.text[:300] if response is not None else ""
        code = response.status_code if response is not None else "-"
        super().__init__(f"{step}: HTTP {code} {detail} {body}".strip())
        self.step = step


class GaveUp(Exception):
    """The journey cannot go on from here (a partner would stop and tell the customer)."""

    def __init__(self, step: str, detail: str) -> None:
        super().__init__(f"{step}: {detail}")
        self.step = step


def valid_cpf(rng: random.Random) -> str:
    """A random CPF with correct check digits."""
    digits = [rng.randint(0, 9) for _ in range(9)]
    for length in (9, 10):
        total = sum(d * w for d, w in zip(digits, range(length + 1, 1, -1), strict=True))
        digits.append((total * 10 % 11) % 10)
    return "".join(map(str, digits))


class PartnerClient:
    """Token handling as the spec advises: fetched once, reused, renewed on 401."""

    def __init__(
        self, base_url: str, client_id: str, client_secret: str, timeout: float = 60.0, poll_interval: float = 2.0
    ) -> None:
        self.root = base_url.rstrip("/").removesuffix("/v1")
        self.api = self.root + "/v1"
        self.client_id, self.client_secret = client_id, client_secret
        self.timeout, self.poll_interval = timeout, poll_interval
        self.session = requests.Session()
        self._token: str | None = None

    def _token_response(self) -> requests.Response:
        return self.session.post(
            self.root + "/oauth2/token",
            timeout=self.timeout,
            data={"grant_type": "client_credentials", "client_id": self.client_id, "client_secret": self.client_secret},
        )

    def token(self) -> str:
        response = self._token_response()
        if response.status_code != 200:
            raise StepFailed("token", response)
        self._token = response.json()["access_token"]
        return self._token

    def call(self, step: str, method: str, path: str, **kwargs) -> requests.Response:
        url = path if path.startswith("http") else self.api + path
        for attempt in (1, 2):
            headers = {"Accept": "application/json", "Authorization": f"Bearer {self._token or self.token()}"}
            headers.update(kwargs.pop("headers", {}) if attempt == 1 else {})
            response = self.session.request(method, url, headers=headers, timeout=self.timeout, **kwargs)
            if response.status_code != 401:
                break
            self._token = None
        _raise_if_route_missing(step, response)
        return response

    def poll(self, step: str, path: str, done, limit: float) -> requests.Response:
        """GET ``path`` until ``done(response)`` or ``limit`` seconds."""
        deadline = time.monotonic() + limit
        while True:
            response = self.call(step, "GET", path)
            if done(response):
                return response
            if time.monotonic() > deadline:
                raise StepFailed(step, response, f"not done after {limit:.0f} s")
            time.sleep(self.poll_interval)

    def absolute(self, url: str) -> str:
        return url if url.startswith("http") else urljoin(self.root + "/", url.lstrip("/"))


def _raise_if_route_missing(step: str, response: requests.Response) -> None:
    if response.status_code not in (404, 405):
        return
    try:
        message = response.json().get("message", "")
    except ValueError:
        message = response.text
    if message.startswith(("Route ", "Method ")):
        raise RouteMissing(step, message)

"""Credit-path fixtures: a ``flow`` that walks a proposal step by step through the API."""

from __future__ import annotations

import itertools

import freezegun
import pytest

CONSENT = {
    "ip": "203.0.113.10",
    "geolocation": {"latitude": -23.5505, "longitude": -46.6333},
    "document_text": "I authorise the payroll margin query and the credit analysis.",
    "channel": "web",
}
APPROVED_CPF = "52998224725"
_phones = itertools.count(987650000)


class Flow:
    """Drives one proposal through the API as a partner would."""

    def __init__(self, client, drain, auth) -> None:
        # ``auth`` (tests/e2e/conftest.py) re-issues the token whenever the frozen clock has moved
        # outside its validity, so moving the clock in a test needs nothing here.
        self.client, self.drain, self.auth = client, drain, auth

    def post(self, url: str, body=None, partner: str = "PARTNER_A", **kwargs):
        return self.client.post(f"/v1{url}", json=body, headers=self.auth(partner), **kwargs)

    def get(self, url: str, partner: str = "PARTNER_A"):
        return self.client.get(f"/v1{url}", headers=self.auth(partner))

    def start(self, cpf: str = APPROVED_CPF, partner: str = "PARTNER_A", birth_date: str = "1985-04-12") -> str:
        response = self.post(
            "/proposals/start", {"cpf": cpf, "full_name": "Maria da Silva", "birth_date": birth_date}, partner
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["proposal_id"]

    def new_phone(self) -> str:
        return f"+5511{next(_phones)}"

    def contact(self, proposal_id: str, partner: str = "PARTNER_A", phone: str | None = None) -> str:
        phone = phone or self.new_phone()
        response = self.post(
            f"/proposals/{proposal_id}/contact", {"email": "maria@example.com", "phone": phone}, partner
        )
        assert response.status_code == 201, response.get_json()
        return phone

    def code(self, phone: str, partner: str = "PARTNER_A") -> str:
        return self.get(f"/sandbox/messages?phone=%2B{phone[1:]}", partner).get_json()[0]["token"]

    def validated(self, cpf: str = APPROVED_CPF, partner: str = "PARTNER_A", **kwargs) -> str:
        proposal_id = self.start(cpf, partner, **kwargs)
        phone = self.contact(proposal_id, partner)
        response = self.post(
            f"/proposals/{proposal_id}/contact/validate-token",
            {"token": self.code(phone, partner), "phone": phone},
            partner,
        )
        assert response.status_code == 200, response.get_json()
        return proposal_id

    def analyse(self, proposal_id: str, partner: str = "PARTNER_A", suffix: str = ""):
        return self.post(f"/proposals/{proposal_id}/credit-analysis{suffix}", CONSENT, partner)

    def with_offers(self, cpf: str = APPROVED_CPF, partner: str = "PARTNER_A") -> tuple[str, dict]:
        proposal_id = self.validated(cpf, partner)
        response = self.analyse(proposal_id, partner)
        assert response.status_code == 201, response.get_json()
        return proposal_id, response.get_json()


# A Tuesday morning in São Paulo, outside the payroll maintenance window (20th 22:00 to 23rd
# 06:00), so offers (due dates, expiry) are the same on every run. The clock ticks: hybrid waits
# and the worker need time to pass.
SAFE_NOW = "2026-03-10T13:00:00Z"


@pytest.fixture(autouse=True)
def business_clock():
    with freezegun.freeze_time(SAFE_NOW, tick=True) as frozen:
        yield frozen


@pytest.fixture
def advance(business_clock):
    """Move the service clock forward by ``delta`` from now (freezegun's tick() restarts from the
    frozen instant and would lose the time the test already spent)."""
    from models.domain.clock import now

    def move(delta) -> None:
        business_clock.move_to(now() + delta)

    return move


@pytest.fixture
def flow(client, drain, auth):
    yield Flow(client, drain, auth)
    # Finish the work this test caused (status events, analyses) before the next test empties
    # the tables; a message still running then would fail on a row that no longer exists.
    drain()

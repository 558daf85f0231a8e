"""The contract path through the API, from a proposal the credit path left behind (tests/builders.py):
banking data, contract generation, the sandbox signing page; and the status history to assert on."""

from __future__ import annotations

from urllib.parse import urlparse

from models.db.proposals import Proposal, StatusChange
from tests.builders import pre_accepted_proposal

# A Tuesday, 12:00 in São Paulo: a business day, outside the payroll maintenance window
# (the ``business_day`` fixture of tests/e2e/conftest.py freezes the clock there).


def signing_path(contract_body: dict) -> str:
    """Path of the sandbox signing page from a contract body's user_redirect_url."""
    url = contract_body.get("user_redirect_url") or contract_body["digital_signature"]["user_redirect_url"]
    return urlparse(url).path


def awaiting_signature(client, headers, drain, *, redirect_url: str | None = None, **proposal_args):
    """Walk a built proposal through banking data and contract generation (HTTP API only)."""
    proposal = pre_accepted_proposal(**proposal_args)
    base = f"/v1/proposals/{proposal.id}"
    assert client.post(f"{base}/banking-data", json={"use_pix_cpf": True}, headers=headers()).json["ok"] is True
    body = {"signature_redirect_url": redirect_url} if redirect_url else {}
    response = client.post(f"{base}/contract/async", json=body, headers=headers())
    assert response.status_code == 202, response.json
    drain()
    contract = client.get(f"{base}/contract", headers=headers())
    assert contract.json["proposal_status"] == "AWAITING_SIGNATURE", contract.json
    return Proposal.get_by_id(proposal.id), contract.json


def history(proposal_id: str) -> list[str]:
    """Statuses the proposal went through, in order."""
    return [
        change.new_status
        for change in StatusChange.select().where(StatusChange.proposal == proposal_id).order_by(StatusChange.sequence)
    ]

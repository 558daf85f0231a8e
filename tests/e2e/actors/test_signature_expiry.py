"""Signature deadline: an unsigned contract expires at 21:00 of the next business day."""

import freezegun

from models.db.contracts import Contract
from models.db.proposals import Proposal
from tests.e2e.contract_path import awaiting_signature, history, signing_path


def test_unsigned_contract_expires_exactly_at_the_deadline(client, auth, drain, business_day):
    proposal, contract = awaiting_signature(client, auth, drain)  # Tuesday 12:00 local
    assert contract["digital_signature"]["expires_at"] == "2026-03-12T00:00:00.000Z"  # Wednesday 21:00 local
    with freezegun.freeze_time("2026-03-11T23:59:59Z"):
        drain()
        assert Proposal.get_by_id(proposal.id).status == "AWAITING_SIGNATURE"
    with freezegun.freeze_time("2026-03-12T00:00:00Z", tick=True):
        drain()
    assert Proposal.get_by_id(proposal.id).status == "EXPIRED"
    row = Contract.get_by_id(contract["contract_id"])
    assert (row.status, row.signature_status, row.funding_canceled_at is not None) == ("EXPIRED", "EXPIRED", True)


def test_signing_after_expiry_changes_nothing(client, auth, drain, business_day):
    proposal, contract = awaiting_signature(client, auth, drain)
    with freezegun.freeze_time("2026-03-12T00:00:01Z", tick=True):
        drain()
        assert client.post(signing_path(contract), json={}).status_code == 409  # the provider closed it
    assert history(proposal.id)[-1] == "EXPIRED"


def test_signed_contract_cancels_its_expiry(client, auth, drain, business_day):
    proposal, contract = awaiting_signature(client, auth, drain)
    client.post(signing_path(contract), json={})
    drain()
    with freezegun.freeze_time("2026-03-12T00:00:01Z", tick=True):
        drain()
    assert "EXPIRED" not in history(proposal.id)

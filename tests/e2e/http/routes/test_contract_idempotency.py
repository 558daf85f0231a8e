"""Idempotency-Key on the contract path: a retried contract POST replays its 201 or 202 (without
the key it would answer 409), and a 5xx is not kept, so its retry runs again."""

import pytest

from models.db.contracts import Contract
from models.db.idempotency import IdempotencyRecord
from models.db.proposals import Proposal
from tests.builders import pre_accepted_proposal, with_bank_account


@pytest.fixture
def ready(business_day):
    return with_bank_account(pre_accepted_proposal())


def keyed(client, auth, url, body, key):
    return client.post(url, json=body, headers={**auth(), "Idempotency-Key": key})


def test_a_retried_contract_replays_its_201_where_a_plain_repeat_answers_409(client, auth, drain, ready):
    url = f"/v1/proposals/{ready.id}/contract"
    first = keyed(client, auth, url, {}, "contract-1")
    again = keyed(client, auth, url, {}, "contract-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"
    assert Contract.select().where(Contract.proposal == ready.id).count() == 1
    assert client.post(url, json={}, headers=auth()).status_code == 409  # the same call without a key
    drain()


def test_a_retried_async_contract_replays_its_202(client, auth, drain, ready):
    url = f"/v1/proposals/{ready.id}/contract/async"
    first = keyed(client, auth, url, {}, "contract-async-1")
    assert first.status_code == 202
    drain()
    again = keyed(client, auth, url, {}, "contract-async-1")
    assert (again.status_code, again.json, again.headers["Idempotent-Replayed"]) == (202, first.json, "true")
    assert Contract.select().where(Contract.proposal == ready.id).count() == 1


def test_a_5xx_is_not_kept_and_the_retry_runs_again(client, auth, business_day):
    proposal = pre_accepted_proposal()
    url = f"/v1/proposals/{proposal.id}/banking-data"
    # bank_account 777777: the sandbox account-ownership service is down (503)
    body = {
        "bank_code": "001",
        "bank_branch": "1234",
        "bank_account": "777777",
        "bank_account_digit": "1",
        "account_type": "checking",
    }
    first = keyed(client, auth, url, body, "bank-1")
    again = keyed(client, auth, url, body, "bank-1")
    assert (first.status_code, again.status_code) == (503, 503)
    assert "Idempotent-Replayed" not in again.headers
    assert not IdempotencyRecord.select().where(IdempotencyRecord.key == "bank-1").exists()  # released
    fixed = keyed(client, auth, url, {**body, "bank_account": "123456"}, "bank-2")
    assert fixed.status_code == 200 and Proposal.get_by_id(proposal.id).status == "BANK_DATA_SUBMITTED"

"""POST banking-data: a traditional account must belong to the proposal's CPF (the spec refuses
third-party accounts and keys), and a new submission replaces the payout destination at once, so
nothing stale can be printed on a contract or paid."""

import threading
from dataclasses import replace

import pytest

from models import runtime
from models.db.banking import BankDataSubmission
from models.db.proposals import Proposal
from models.external.account_ownership import CONFIRMED, AccountOwnership
from models.external.account_ownership.sandbox import SandboxAccountOwnership
from tests.builders import pre_accepted_proposal

ACCOUNT = {
    "bank_code": "341",
    "bank_branch": "1234",
    "bank_account": "567890",
    "bank_account_digit": "1",
    "account_type": "checking",
}


@pytest.fixture
def proposal():
    return pre_accepted_proposal()


@pytest.fixture
def post(client, auth, drain):  # drain starts the worker the checks run on
    def send(proposal_id, body):
        return client.post(f"/v1/proposals/{proposal_id}/banking-data", json=body, headers=auth())

    return send


def destination(proposal_id):
    p = Proposal.get_by_id(proposal_id)
    return {"bank_account": p.bank_account, "pix_key": p.pix_key, "bank_code": p.bank_code}


NOTHING = {"bank_account": None, "pix_key": None, "bank_code": None}


def test_an_account_of_the_customer_is_checked_and_saved(post, proposal, use_runtime):
    checked = []

    class Recording(SandboxAccountOwnership):
        def check(self, account, *, holder_document):
            checked.append((account.bank_code, account.account, holder_document))
            return super().check(account, holder_document=holder_document)

    use_runtime(ports={"account_ownership": Recording()})
    response = post(proposal.id, ACCOUNT)
    assert (response.status_code, response.json["ok"]) == (200, True)
    assert checked == [("341", "567890", proposal.cpf)]
    assert destination(proposal.id)["bank_account"] == "567890"


@pytest.mark.parametrize(
    "account,status,code",
    [
        ("999999", 400, "BANK_ACCOUNT_CPF_MISMATCH"),
        ("000000", 400, "BANK_ACCOUNT_NOT_VALIDATED"),
        ("777777", 503, "ACCOUNT_OWNERSHIP_UNAVAILABLE"),
    ],
)
def test_an_account_that_is_not_the_customers_is_refused_and_nothing_is_saved(post, proposal, account, status, code):
    response = post(proposal.id, {**ACCOUNT, "bank_account": account})
    assert (response.status_code, response.json["errorCode"]) == (status, code)
    assert Proposal.get_by_id(proposal.id).status == "PRE_ACCEPTED"
    assert destination(proposal.id) == NOTHING


def test_a_third_party_account_answers_the_spec_error_body(post, proposal):
    response = post(proposal.id, {**ACCOUNT, "bank_account": "999999"})
    assert response.json == {
        "statusCode": 400,
        "error": "Bad Request",
        "errorCode": "BANK_ACCOUNT_CPF_MISMATCH",
        "message": "The account belongs to another holder; ask the customer for an account of their own CPF",
    }


@pytest.mark.parametrize(
    "refused",
    [
        {"pix_key": "mismatch@sandbox.test", "pix_key_type": "EMAIL"},  # 200 ok false
        {"pix_key": "notfound@sandbox.test", "pix_key_type": "EMAIL"},  # 400
        {**ACCOUNT, "bank_account": "999999"},  # 400, another holder
    ],
)
def test_a_refused_correction_leaves_no_destination_and_no_contract_can_be_made(post, proposal, refused, client, auth):
    assert post(proposal.id, ACCOUNT).json["ok"] is True
    post(proposal.id, refused)
    saved = Proposal.get_by_id(proposal.id)
    assert (saved.status, destination(proposal.id)) == ("BANK_DATA_SUBMITTED", NOTHING)
    response = client.post(f"/v1/proposals/{proposal.id}/contract/async", json={}, headers=auth())
    assert (response.status_code, response.json["errorCode"]) == (409, "BANKING_DATA_REQUIRED")
    # Once new data is confirmed, the contract can be made on it.
    assert post(proposal.id, {"use_pix_cpf": True}).json["ok"] is True
    assert client.post(f"/v1/proposals/{proposal.id}/contract/async", json={}, headers=auth()).status_code == 202


def test_a_malformed_body_changes_nothing(post, proposal):
    post(proposal.id, ACCOUNT)
    response = post(proposal.id, {**ACCOUNT, "bank_code": "999"})
    assert (response.status_code, destination(proposal.id)["bank_account"]) == (400, "567890")


class HeldOwnership(AccountOwnership):
    """Answers CONFIRMED, but only once ``release`` is set (the service being slow)."""

    def __init__(self) -> None:
        self.release, self.asked = threading.Event(), threading.Event()

    def check(self, account, *, holder_document):
        self.asked.set()
        self.release.wait(20)
        return CONFIRMED


def test_past_the_wait_the_previous_destination_stays_cleared(post, proposal, use_runtime, drain):
    post(proposal.id, {"use_pix_cpf": True})
    held = HeldOwnership()
    short = replace(runtime.current().settings.banking, pix_lookup_wait_seconds=0.5)
    use_runtime(ports={"account_ownership": held}, settings={"banking": short})
    response = post(proposal.id, ACCOUNT)
    assert (response.status_code, response.json["errorCode"]) == (503, "ACCOUNT_OWNERSHIP_TIMEOUT")
    held.release.set()
    drain()  # the late verdict arrives after the request gave up: it saves nothing
    assert destination(proposal.id) == NOTHING


def test_a_late_verdict_of_an_older_submission_never_overwrites_a_newer_one(client, auth, proposal, use_runtime, drain):
    held = HeldOwnership()
    use_runtime(ports={"account_ownership": held})
    answers = {}

    def first():
        answers["first"] = client.post(f"/v1/proposals/{proposal.id}/banking-data", json=ACCOUNT, headers=auth())

    worker = threading.Thread(target=first)
    worker.start()
    assert held.asked.wait(10)  # the first submission's check is under way
    second = client.post(f"/v1/proposals/{proposal.id}/banking-data", json={"use_pix_cpf": True}, headers=auth())
    held.release.set()
    worker.join(20)
    drain()
    assert (second.status_code, second.json["ok"]) == (200, True)
    assert (answers["first"].status_code, answers["first"].json["errorCode"]) == (409, "CONCURRENT_UPDATE")
    assert destination(proposal.id) == {"bank_account": None, "pix_key": proposal.cpf, "bank_code": None}
    assert [s.state for s in BankDataSubmission.select().order_by(BankDataSubmission.created_at)] == [
        "SUPERSEDED",
        "DONE",
    ]

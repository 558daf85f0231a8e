"""POST /v1/proposals/<id>/banking-data: the three options, field rules, the Pix directory, the
account-ownership check (the spec refuses third-party accounts and keys), and a new submission
replacing the payout destination at once, so nothing stale can be printed on a contract or paid."""

import threading
from dataclasses import replace

import pytest

from models import runtime
from models.db.banking import BankDataSubmission
from models.db.proposals import Proposal
from models.external.account_ownership import CONFIRMED, AccountOwnership
from models.external.account_ownership.sandbox import SandboxAccountOwnership
from tests.builders import BANK_ACCOUNT, DEFAULT_CPF, pre_accepted_proposal

ACCOUNT = BANK_ACCOUNT


@pytest.fixture
def proposal():
    return pre_accepted_proposal()


@pytest.fixture
def post(client, auth, drain):  # drain starts the worker the Pix lookup runs on
    def send(proposal_id, body, partner="PARTNER_A"):
        return client.post(f"/v1/proposals/{proposal_id}/banking-data", json=body, headers=auth(partner))

    return send


def ok_body(proposal_id):
    return {
        "message": "Banking data saved for disbursement",
        "proposal_id": proposal_id,
        "status": "BANK_DATA_SUBMITTED",
        "ok": True,
    }


def test_traditional_account_is_saved_with_the_bank_code_normalised(post, proposal):
    response = post(proposal.id, {**ACCOUNT, "bank_code": "1", "account_type": "checking_account"})
    assert (response.status_code, response.json) == (200, ok_body(proposal.id))
    saved = Proposal.get_by_id(proposal.id)
    assert (saved.status, saved.bank_code, saved.account_type, saved.pix_key) == (
        "BANK_DATA_SUBMITTED",
        "001",
        "checking",
        None,
    )


def test_cpf_key_is_confirmed_for_the_proposals_cpf(post, proposal):
    response = post(proposal.id, {"use_pix_cpf": True})
    assert (response.status_code, response.json) == (200, ok_body(proposal.id))
    saved = Proposal.get_by_id(proposal.id)
    assert (saved.pix_key, saved.pix_key_type, saved.use_pix_cpf) == (DEFAULT_CPF, "CPF", True)


def test_pix_key_clears_saved_traditional_fields(post, proposal):
    post(proposal.id, ACCOUNT)
    response = post(proposal.id, {"pix_key": "Maria@Example.com", "pix_key_type": "EMAIL"})
    assert (response.status_code, response.json) == (200, ok_body(proposal.id))
    saved = Proposal.get_by_id(proposal.id)
    assert (saved.bank_code, saved.bank_account, saved.pix_key, saved.pix_key_type) == (
        None,
        None,
        "maria@example.com",
        "EMAIL",
    )


@pytest.mark.parametrize(
    "key,key_type", [("0f8fad5b-d9cb-469f-a165-70867728950e", "EVP"), ("+5511987654321", "PHONE"), (DEFAULT_CPF, "CPF")]
)
def test_well_formed_keys_of_the_customer_are_confirmed(post, proposal, key, key_type):
    response = post(proposal.id, {"pix_key": key, "pix_key_type": key_type})
    assert (response.status_code, response.json["ok"]) == (200, True)


def test_key_of_another_cpf_answers_ok_false_cpf_mismatch(post, proposal):
    response = post(proposal.id, {"pix_key": "mismatch@sandbox.test", "pix_key_type": "EMAIL"})
    assert (response.status_code, response.json) == (
        200,
        {
            "message": "The Pix key belongs to another CPF; ask the customer for their own key or account",
            "proposal_id": proposal.id,
            "status": "PIX_KEY_CPF_MISMATCH",
            "ok": False,
        },
    )
    assert Proposal.get_by_id(proposal.id).status == "PRE_ACCEPTED"


def test_cpf_key_of_another_cpf_is_a_mismatch(post, proposal):
    response = post(proposal.id, {"pix_key": "98765432100", "pix_key_type": "CPF"})
    assert (response.status_code, response.json["status"], response.json["ok"]) == (200, "PIX_KEY_CPF_MISMATCH", False)


def test_unconfirmed_key_answers_ok_false_not_confirmed(post, proposal):
    response = post(proposal.id, {"pix_key": "unconfirmed@sandbox.test", "pix_key_type": "EMAIL"})
    assert (response.status_code, response.json) == (
        200,
        {
            "message": "The Pix key could not be confirmed; ask the customer for other banking data",
            "proposal_id": proposal.id,
            "status": "PIX_KEY_NOT_CONFIRMED",
            "ok": False,
        },
    )
    assert Proposal.get_by_id(proposal.id).pix_key is None


def test_key_missing_from_the_directory_is_not_validated(post, proposal):
    response = post(proposal.id, {"pix_key": "notfound@sandbox.test", "pix_key_type": "EMAIL"})
    assert (response.status_code, response.json["errorCode"]) == (400, "PIX_KEY_NOT_VALIDATED")


def test_key_held_at_a_bank_off_the_list_is_refused(post, proposal):
    response = post(proposal.id, {"pix_key": "otherbank@sandbox.test", "pix_key_type": "EMAIL"})
    assert response.status_code == 400
    assert response.json == {
        "statusCode": 400,
        "error": "Bad Request",
        "errorCode": "PIX_KEY_BANK_NOT_ALLOWED",
        "message": "The Pix key's bank 999 is not accepted for disbursement",
    }


def test_bank_999_is_well_formed_but_not_allowed(post, proposal):
    response = post(proposal.id, {**ACCOUNT, "bank_code": "999"})
    assert (response.status_code, response.json["errorCode"], response.json["details"]["field"]) == (
        400,
        "BANK_NOT_ALLOWED",
        "bank_code",
    )


@pytest.mark.parametrize(
    "body,field,code",
    [
        ({"pix_key": "maria@example.com"}, "pix_key_type", "PIX_KEY_TYPE_REQUIRED"),
        ({"pix_key": "12345678000199", "pix_key_type": "CNPJ"}, "pix_key_type", "PIX_KEY_TYPE_NOT_SUPPORTED"),
        ({"pix_key": "not-a-uuid", "pix_key_type": "EVP"}, "pix_key", "INVALID_PIX_KEY"),
        ({"pix_key": "11987654321", "pix_key_type": "PHONE"}, "pix_key", "INVALID_PIX_KEY"),
        ({"pix_key": "98765432101", "pix_key_type": "CPF"}, "pix_key", "INVALID_PIX_KEY"),  # wrong check digits
        ({"pix_key": "9876543210\uff10", "pix_key_type": "CPF"}, "pix_key", "INVALID_PIX_KEY"),  # fullwidth zero
        ({"use_pix_cpf": True, "bank_code": "341"}, "bank_code", "INVALID_BANKING_DATA"),
        (
            {"use_pix_cpf": True, "pix_key": "maria@example.com", "pix_key_type": "EMAIL"},
            "use_pix_cpf",
            "INVALID_BANKING_DATA",
        ),
        ({k: v for k, v in ACCOUNT.items() if k != "bank_account_digit"}, "bank_account_digit", "INVALID_BANKING_DATA"),
        ({"use_pix_cpf": False}, "bank_code", "INVALID_BANKING_DATA"),
    ],
)
def test_invalid_combinations_answer_400_naming_the_field(post, proposal, body, field, code):
    response = post(proposal.id, body)
    assert (response.status_code, response.json["errorCode"], response.json["details"]["field"]) == (400, code, field)


def test_malformed_field_is_a_validation_error(post, proposal):
    response = post(proposal.id, {**ACCOUNT, "bank_branch": "12a4"})
    assert (response.status_code, response.json["errorCode"], response.json["details"]["field"]) == (
        400,
        "VALIDATION_ERROR",
        "bank_branch",
    )


@pytest.mark.parametrize(
    "status",
    [
        "CONTRACT_GENERATED",
        "AWAITING_SIGNATURE",
        "SIGNED",
        "DISBURSED",
        "CREDIT_ANALYSIS_IN_PROGRESS",
        "SIGNATURE_FAILED",
    ],
)
def test_blocked_statuses_answer_400_status_does_not_allow_update(post, status):
    proposal = pre_accepted_proposal(status=status)
    response = post(proposal.id, ACCOUNT)
    assert response.status_code == 400
    assert response.json == {
        "statusCode": 400,
        "error": "Bad Request",
        "errorCode": "INVALID_STATUS_FOR_BANKING_DATA",
        "message": f"Proposal status {status} does not allow update of banking data",
        "details": {"currentStatus": status, "requiredStatus": "PRE_ACCEPTED or BANK_DATA_SUBMITTED"},
    }


def test_unknown_proposal_is_404(post):
    response = post("0f8fad5b-d9cb-469f-a165-70867728950e", ACCOUNT)
    assert (response.status_code, response.json["errorCode"]) == (404, "PROPOSAL_NOT_FOUND")


def test_other_partners_proposal_is_403(post, proposal):
    assert post(proposal.id, ACCOUNT, partner="PARTNER_B").status_code == 403


def test_correction_keeps_the_status_without_a_new_status_change(post, proposal):
    post(proposal.id, ACCOUNT)
    before = Proposal.get_by_id(proposal.id).status_sequence
    response = post(proposal.id, {**ACCOUNT, "bank_account": "111111"})
    assert (response.status_code, Proposal.get_by_id(proposal.id).status_sequence) == (200, before)
    assert Proposal.get_by_id(proposal.id).bank_account == "111111"


# --- account ownership and replacing the destination ---------------------------------------


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
    assert ("Retry-After" in response.headers) == (status == 503)  # every 503 says when to retry
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
def test_a_refused_correction_leaves_no_destination_and_no_contract_can_be_made(
    post, proposal, refused, client, auth, drain
):
    assert post(proposal.id, ACCOUNT).json["ok"] is True
    post(proposal.id, refused)
    saved = Proposal.get_by_id(proposal.id)
    assert (saved.status, destination(proposal.id)) == ("BANK_DATA_SUBMITTED", NOTHING)
    response = client.post(f"/v1/proposals/{proposal.id}/contract/async", json={}, headers=auth())
    assert (response.status_code, response.json["errorCode"]) == (409, "BANKING_DATA_REQUIRED")
    # Once new data is confirmed, the contract can be made on it.
    assert post(proposal.id, {"use_pix_cpf": True}).json["ok"] is True
    assert client.post(f"/v1/proposals/{proposal.id}/contract/async", json={}, headers=auth()).status_code == 202
    drain()  # the generation runs to its end before the next test empties the tables


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
    assert response.headers["Retry-After"] == str(runtime.current().settings.unavailable_retry_after_seconds)
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

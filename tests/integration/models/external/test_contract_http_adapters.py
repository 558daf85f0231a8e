"""Real HTTP adapters of the contract path against the local simulator (conftest ``simulator``)."""

import logging
from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from models.external.endorsement.http_adapter import HttpEndorsement
from models.external.endorsement.port import EndorsementRequest
from models.external.esignature.http_adapter import HttpESignature
from models.external.esignature.port import Signer
from models.external.funding.http_adapter import HttpFunding
from models.external.http_base import ExternalError, RetryableExternalError
from models.external.pix_directory.http_adapter import HttpPixDirectory


def test_pix_directory_maps_found_and_not_found(simulator):
    url, script, seen = simulator.url, simulator.script, simulator.requests
    script += [(200, {"owner_document": "12345678909", "bank_code": "001", "status": "ACTIVE"}), (404, {})]
    adapter = HttpPixDirectory(url, 2)
    found = adapter.lookup("a@b.com", "EMAIL", requester_document="12345678909")
    assert (found.lookup, found.owner_document, found.bank_code, found.confirmed) == (
        "FOUND",
        "12345678909",
        "001",
        True,
    )
    assert adapter.lookup("x@b.com", "EMAIL", requester_document="12345678909").lookup == "NOT_FOUND"
    assert seen[0]["path"] == "/keys/a%40b.com?type=EMAIL"


def test_server_errors_are_retried_then_succeed(simulator):
    url, script, seen = simulator.url, simulator.script, simulator.requests
    script += [(503, {}), (200, {"endorsement_id": "E-1"})]
    adapter = HttpEndorsement(url, 2)
    adapter.client.backoff_seconds = 0
    request = EndorsementRequest("c-1", "12345678909", Decimal("600.00"), 48, date(2026, 5, 5))
    assert adapter.register(request) == "E-1"
    assert len(seen) == 2 and simulator.headers[1]["Idempotency-Key"] == "c-1"


def test_persistent_server_errors_are_retryable(simulator):
    url, script = simulator.url, simulator.script
    script += [(500, {})] * 3
    adapter = HttpFunding(url, 2)
    adapter.client.backoff_seconds = 0
    with pytest.raises(RetryableExternalError):
        adapter.cancel_application("app-1")


def test_client_errors_are_not_retried(simulator):
    url, script, seen = simulator.url, simulator.script, simulator.requests
    script += [(422, {"error": "bad"})]
    with pytest.raises(ExternalError) as error:
        HttpFunding(url, 2).cancel_application("app-1")
    assert (error.value.retryable, error.value.status_code, len(seen)) == (False, 422, 1)


def test_funding_payment_sends_the_idempotency_key(simulator):
    url, script = simulator.url, simulator.script
    script += [(200, {"status": "PAID", "amount": "1000.00", "paid_at": "2026-03-11T12:00:00Z"})]
    payment = HttpFunding(url, 2).pay(
        application_id="app-1", amount=Decimal("1000.00"), destination={"type": "PIX"}, idempotency_key="disb-c-1"
    )
    assert (payment.status, payment.amount, payment.paid_at) == (
        "PAID",
        Decimal("1000.00"),
        datetime(2026, 3, 11, 12, tzinfo=timezone.utc),
    )
    assert simulator.headers[0]["Idempotency-Key"] == "disb-c-1"


def test_esignature_creates_a_process_with_the_document(simulator):
    url, script, seen = simulator.url, simulator.script, simulator.requests
    script += [(201, {"process_id": "p-1", "user_redirect_url": "https://sign.example/p-1"})]
    process = HttpESignature(url, 2, "https://api.example/callbacks/esignature").create_process(
        reference="c-1",
        signer=Signer("12345678909", "MARIA", None, None),
        document=b"%PDF-1.4",
        filename="CCB.pdf",
        redirect_url=None,
        expires_at=datetime(2026, 3, 12, tzinfo=timezone.utc),
    )
    assert (process.process_id, process.user_redirect_url) == ("p-1", "https://sign.example/p-1")
    assert seen[0]["body"]["document"]["content_base64"] == "JVBERi0xLjQ="
    assert seen[0]["body"]["expires_at"] == "2026-03-12T00:00:00.000Z"


def test_pix_directory_log_line_hides_the_key(simulator, caplog):
    url, script = simulator.url, simulator.script
    script += [(404, {})]
    caplog.set_level(logging.INFO, logger="models.external.http_base")
    HttpPixDirectory(url, 2).lookup("12345678909", "CPF", requester_document="12345678909")
    assert (
        caplog.records[0].getMessage().split(" in ")[0]
        == f"pix_directory GET {url.removeprefix('http://')}/keys/{{key}} -> 404"
    )
    assert "12345678909" not in caplog.text


def _fraud_case():
    from models.external.fraud.port import FraudCase

    return FraudCase("c-1", "12345678909", "MARIA", Decimal("5000.00"), "PARTNER_A")


def test_fraud_screening_and_decision_are_read(simulator):
    from models.external.fraud.http_adapter import HttpFraudAnalysis

    simulator.script += [(200, {"attention_required": True}), (200, {"decision": "REPROVED", "reason": "device"})]
    adapter = HttpFraudAnalysis(simulator.url, 2)
    assert adapter.needs_attention(_fraud_case()) is True
    assert adapter.decide(_fraud_case()) == (False, "device")
    assert simulator.headers[1]["Idempotency-Key"] == "c-1"


@pytest.mark.parametrize("answer", ["", "<html>busy</html>", {"attention": "no"}, {"attention_required": "false"}])
def test_fraud_screening_fails_closed_on_a_garbled_answer(simulator, answer):
    from models.external.fraud.http_adapter import HttpFraudAnalysis

    simulator.script.append((200, answer))
    with pytest.raises(ExternalError):
        HttpFraudAnalysis(simulator.url, 2).needs_attention(_fraud_case())


@pytest.mark.parametrize("answer", ["", {"decision": "MAYBE"}, {"result": "APPROVED"}])
def test_fraud_decision_fails_closed_on_a_garbled_answer(simulator, answer):
    from models.external.fraud.http_adapter import HttpFraudAnalysis

    simulator.script.append((200, answer))
    with pytest.raises(ExternalError):
        HttpFraudAnalysis(simulator.url, 2).decide(_fraud_case())


def test_account_ownership_sends_the_account_in_the_body_and_maps_every_answer(simulator, caplog):
    from models.external.account_ownership import BankAccount
    from models.external.account_ownership.http_adapter import HttpAccountOwnership

    url, script, seen = simulator.url, simulator.script, simulator.requests
    script += [(200, {"result": "CONFIRMED"}), (200, {"result": "OTHER_HOLDER"}), (404, {}), (200, {"result": "?"})]
    adapter = HttpAccountOwnership(url, 2)
    account = BankAccount("341", "1234", None, "567890", "1", "checking")
    caplog.set_level(logging.INFO, logger="models.external.http_base")
    answers = [adapter.check(account, holder_document="12345678909") for _ in range(3)]
    assert answers == ["CONFIRMED", "OTHER_HOLDER", "NOT_FOUND"]
    with pytest.raises(ExternalError):  # an answer it does not know is never taken for a yes
        adapter.check(account, holder_document="12345678909")
    assert (seen[0]["method"], seen[0]["path"]) == ("POST", "/accounts/ownership")
    assert seen[0]["body"] == {
        "bank_code": "341",
        "branch": "1234",
        "branch_digit": None,
        "account": "567890",
        "account_digit": "1",
        "account_type": "checking",
        "holder_document": "12345678909",
    }
    assert "567890" not in caplog.text and "12345678909" not in caplog.text


def test_funding_finds_a_payment_by_its_idempotency_key(simulator):
    url, script, seen = simulator.url, simulator.script, simulator.requests
    script += [(200, {"status": "PAID", "amount": "1000.00", "paid_at": "2026-03-11T12:00:00Z"})]
    payment = HttpFunding(url, 2).find_payment(idempotency_key="disb-c-1")
    assert (payment.status, payment.amount) == ("PAID", Decimal("1000.00"))
    assert (seen[0]["method"], seen[0]["path"]) == ("GET", "/payments/disb-c-1")


def test_funding_knows_no_payment_for_an_unknown_key(simulator):
    simulator.script.append((404, {"error": "not found"}))
    assert HttpFunding(simulator.url, 2).find_payment(idempotency_key="disb-c-2") is None

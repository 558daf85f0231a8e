"""Real HTTP adapters against the local simulator: success, retryable and non-retryable errors."""

import logging
from decimal import Decimal

import pytest

from models.external.collections.http_adapter import HttpCollections
from models.external.collections.port import CollectionsUnavailable
from models.external.credit_engine.http_adapter import HttpCreditEngine
from models.external.credit_engine.port import CreditEngineError
from models.external.http_base import ExternalError, HttpClient, RetryableExternalError
from models.external.messaging.http_adapter import HttpMessaging
from models.external.messaging.port import MessagingError
from models.external.payroll.http_adapter import HttpPayroll
from models.external.payroll.port import PayrollUnavailable


def test_client_retries_a_5xx_and_returns_the_answer(simulator, http_client):
    simulator.script = [(503, {}), (200, {"ok": True})]
    assert http_client.post("/x", {"a": 1}) == {"ok": True}
    assert len(simulator.requests) == 2


def test_client_gives_up_after_its_retries_with_a_retryable_error(simulator, http_client):
    simulator.script = [(500, {})] * 3
    with pytest.raises(RetryableExternalError):
        http_client.post("/x", {})
    assert len(simulator.requests) == 3


def test_client_does_not_retry_a_4xx(simulator, http_client):
    simulator.script = [(422, {"error": "bad"})]
    with pytest.raises(ExternalError) as raised:
        http_client.post("/x", {})
    assert (raised.value.retryable, raised.value.status_code, len(simulator.requests)) == (False, 422, 1)


def test_client_treats_a_refused_connection_as_retryable():
    client = HttpClient("http://127.0.0.1:9", connect_timeout=0.5, read_timeout=0.5, retries=0, name="down")
    with pytest.raises(RetryableExternalError):
        client.get("/x")


def test_payroll_margin_is_read(simulator, http_client):
    simulator.script = [(200, {"available_margin": "812.40", "employer_document": "00000000000191"})]
    result = HttpPayroll(http_client).query_margin("52998224725")
    assert result.available_margin == Decimal("812.40")
    assert simulator.requests[0] == {"method": "POST", "path": "/margin", "body": {"cpf": "52998224725"}}


def test_payroll_employment_data_is_read_as_far_as_given(simulator, http_client):
    simulator.script = [
        (
            200,
            {
                "available_margin": 812.4,
                "employer_document": "00000000000191",
                "employer_name": "ACME LTDA",
                "admission_date": "2019-08-01",
                "gross_salary": "4200.00",
            },
        ),
        (200, {"available_margin": "812.40"}),
    ]
    full, bare = HttpPayroll(http_client).query_margin("52998224725"), HttpPayroll(http_client).query_margin("1")
    assert full.snapshot() == {
        "available_margin": "812.40",
        "employer_document": "00000000000191",
        "employer_name": "ACME LTDA",
        "admission_date": "2019-08-01",
        "gross_salary": "4200.00",
    }
    assert bare.snapshot() == {
        "available_margin": "812.40",
        "employer_document": None,
        "employer_name": None,
        "admission_date": None,
        "gross_salary": None,
    }


@pytest.mark.parametrize(
    "body",
    [
        {"available_margin": "NaN"},
        {"available_margin": True},
        {"available_margin": "800.00", "admission_date": "01/08/2019"},
        {"available_margin": "800.00", "employer_name": {"name": "ACME"}},
        {"available_margin": "800.00", "gross_salary": "Infinity"},
    ],
)
def test_payroll_answer_out_of_shape_is_a_technical_failure(simulator, http_client, body):
    simulator.script = [(200, body)]
    with pytest.raises(PayrollUnavailable, match="unexpected body") as raised:
        HttpPayroll(http_client).query_margin("52998224725")
    assert raised.value.auto_retry is False


def test_payroll_unavailable_with_automatic_retry(simulator, http_client):
    simulator.script = [(200, {"status": "UNAVAILABLE", "auto_retry": True})]
    with pytest.raises(PayrollUnavailable) as raised:
        HttpPayroll(http_client).query_margin("52998224725")
    assert raised.value.auto_retry is True


def test_payroll_down_is_unavailable_without_automatic_retry(simulator, http_client):
    simulator.script = [(502, {})] * 3
    with pytest.raises(PayrollUnavailable) as raised:
        HttpPayroll(http_client).query_margin("52998224725")
    assert raised.value.auto_retry is False


def test_credit_engine_decision_is_read(simulator, http_client):
    simulator.script = [
        (
            200,
            {
                "approved": True,
                "monthly_rate": "0.0185",
                "max_installments": 84,
                "pod_limit_max": "30000.00",
                "score": 700,
            },
        )
    ]
    decision = HttpCreditEngine(http_client).evaluate("52998224725", Decimal("500.00"))
    assert (decision.approved, decision.monthly_rate, decision.max_installments, decision.pod_limit_max) == (
        True,
        Decimal("0.0185"),
        84,
        Decimal("30000.00"),
    )
    assert simulator.requests[0]["body"] == {"cpf": "52998224725", "available_margin": "500.00", "promotional": False}


def test_credit_engine_rejection_and_malformed_answer(simulator, http_client):
    simulator.script = [(200, {"approved": False, "rejection_reason": "INSUFFICIENT_SCORE"}), (200, {"nope": 1})]
    engine = HttpCreditEngine(http_client)
    assert engine.evaluate("52998224725", Decimal("1")).rejection_reason == "INSUFFICIENT_SCORE"
    with pytest.raises(CreditEngineError):
        engine.evaluate("52998224725", Decimal("1"))


def test_sms_provider_returns_its_message_id(simulator, http_client):
    simulator.script = [(201, {"id": "msg-1"})]
    assert HttpMessaging(http_client, "sms").send("+5511987654321", "code 123456", reference="9") == "msg-1"
    assert simulator.requests[0]["body"] == {
        "to": "+5511987654321",
        "text": "code 123456",
        "reference": "9",
        "channel": "sms",
    }


def test_messaging_provider_refusal_is_not_retryable(simulator, http_client):
    simulator.script = [(400, {"error": "invalid number"})]
    with pytest.raises(MessagingError) as raised:
        HttpMessaging(http_client, "whatsapp").send("+5511987654321", "x", reference="1")
    assert raised.value.retryable is False


def test_collections_overdue_days(simulator, http_client):
    simulator.script = [(200, {"longest_overdue_days": 12}), (503, {}), (503, {}), (503, {})]
    collections = HttpCollections(http_client)
    assert collections.longest_overdue_days("10000001171") == 12
    with pytest.raises(CollectionsUnavailable):
        collections.longest_overdue_days("10000001171")


def test_client_errors_carry_the_decoded_answer(simulator, http_client):
    simulator.script = [(422, {"error": "bad"})]
    with pytest.raises(ExternalError) as raised:
        http_client.request("POST", "/x", json={})
    assert (raised.value.status_code, raised.value.body) == (422, {"error": "bad"})


def test_client_request_reads_an_empty_answer_as_none(simulator, http_client):
    simulator.script = [(204, "")]
    assert http_client.request("POST", "/applications/app-1/cancel") is None


def test_client_post_refuses_an_answer_that_is_not_json(simulator, http_client):
    simulator.script = [(200, "not json")]
    with pytest.raises(ExternalError) as raised:
        http_client.post("/x", {})
    assert (raised.value.retryable, str(raised.value)) == (False, "test: invalid JSON answer")


def test_client_logs_one_timing_line_per_call_without_body_or_query(simulator, http_client, caplog):
    simulator.script = [(200, {"cpf": "52998224725"})]
    caplog.set_level(logging.INFO, logger="models.external.http_base")
    http_client.get("/overdue", {"cpf": "52998224725"})
    host = simulator.url.removeprefix("http://")
    assert [r.getMessage().split(" in ")[0] for r in caplog.records] == [f"test GET {host}/overdue -> 200"]
    assert "52998224725" not in caplog.text and caplog.records[0].getMessage().endswith(" ms")


def test_client_logs_a_retried_failure_as_a_warning(simulator, http_client, caplog):
    simulator.script = [(503, {}), (200, {})]
    caplog.set_level(logging.INFO, logger="models.external.http_base")
    http_client.post("/x", {"cpf": "52998224725"})
    assert [(r.levelname, r.getMessage().split(" in ")[0]) for r in caplog.records] == [
        ("WARNING", f"test POST {simulator.url.removeprefix('http://')}/x -> 503"),
        ("INFO", f"test POST {simulator.url.removeprefix('http://')}/x -> 200"),
    ]


def test_auction_feed_leaves_out_a_bad_item_and_reads_the_rest(simulator, caplog):
    from models.external.auctions.http_adapter import HttpAuctionSource

    good = {
        "id": "a1",
        "document": "12345678909",
        "name": "Maria Silva",
        "available_balance": 900,
        "installment_quantity": 12,
    }
    simulator.script = [(200, [good, {**good, "id": "a2", "name": "\u0007bell"}, {**good, "id": "a3"}])]
    with caplog.at_level(logging.WARNING):
        offers = HttpAuctionSource(simulator.url).fetch_new()
    assert [offer.external_id for offer in offers] == ["a1", "a3"]
    assert simulator.requests[0]["method"] == "GET" and simulator.requests[0]["path"] == "/auction-proposals"
    assert "item 1 (id a2): name is not" in caplog.text


def test_an_auction_feed_that_is_not_a_list_is_unreadable_and_not_retryable(simulator):
    from models.external.auctions.http_adapter import HttpAuctionSource
    from models.external.auctions.port import AuctionSourceError

    simulator.script = [(200, {"items": []})]
    with pytest.raises(AuctionSourceError) as raised:
        HttpAuctionSource(simulator.url).fetch_new()
    assert raised.value.retryable is False and "not a JSON list" in str(raised.value)

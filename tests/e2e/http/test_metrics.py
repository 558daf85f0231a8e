"""GET /metrics: Prometheus text, no token, API/actor metrics and business figures."""

from models import runtime
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.services.platform import metrics


def _scrape(client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200 and response.content_type.startswith("text/plain")
    return response.get_data(as_text=True)


def _value(text: str, sample: str) -> float:
    for line in text.splitlines():
        if line.startswith(sample + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{sample} not in scrape")


def test_metrics_needs_no_token_and_counts_requests_by_route_template(client, auth):
    before = _scrape(client)
    sample = 'consignado_http_requests_total{method="GET",route="/health/live",status="200"}'
    start = _value(before, sample) if sample in before else 0.0
    client.get("/health/live")
    client.get("/health/live")
    after = _scrape(client)
    assert _value(after, sample) == start + 2
    assert 'consignado_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health/live"}' in after


def test_unknown_paths_share_one_label(client):
    client.get("/v1/no-such-route/52998224725")
    text = _scrape(client)
    assert 'route="unmatched"' in text and "52998224725" not in text


def test_business_figures_come_from_the_database(client, monkeypatch):
    monkeypatch.setattr(metrics, "_collector", None)  # a fresh cache for this test
    Proposal.create(
        origin="PARTNER_A",
        product_id="p",
        cpf="52998224725",
        full_name="ANA",
        birth_date=now().date(),
        status="TOKEN_SENT",
    )
    for kind in ("status", "status", "auction"):
        WebhookDelivery.create(
            kind=kind,
            partner_code="PARTNER_A",
            proposal_id="x",
            idempotency_key=OutboxMessage().id,
            payload={},
            status="FAILED",
        )
    OutboxMessage.create(actor_name="deliver_status_change", args=[1])
    OutboxMessage.create(actor_name="no_such_actor", args=[], parked_at=now(), last_error="no actor")
    text = _scrape(client)
    assert _value(text, 'consignado_proposals{status="TOKEN_SENT"}') == 1
    assert _value(text, 'consignado_webhook_deliveries_failed{kind="status"}') == 2
    assert _value(text, 'consignado_webhook_deliveries_failed{kind="auction"}') == 1
    assert _value(text, "consignado_outbox_backlog") == 1
    assert _value(text, "consignado_outbox_parked") == 1
    assert _value(text, "consignado_code_messages_unanswered") == 0
    assert _value(text, "consignado_business_metrics_up") == 1
    assert "consignado_queue_depth{queue=" in text


def test_business_figures_are_cached_between_scrapes(monkeypatch):
    reads = []
    collector = metrics.BusinessCollector(60, runtime.current().settings.contact)
    monkeypatch.setattr(collector, "_read", lambda: reads.append(1) or [])
    collector.collect()
    collector.collect()
    assert reads == [1]


def test_actor_metrics_count_processed_messages(client, broker, drain):
    from models.domain.status_machine import Trigger
    from models.services.platform.proposal_status import move
    from models.services.platform.unit_of_work import unit_of_work

    proposal = Proposal.create(
        origin="PARTNER_A",
        product_id="p",
        cpf="52998224725",
        full_name="ANA",
        birth_date=now().date(),
        status="CREATED",
    )
    text = _scrape(client)
    queue = broker.get_actor("deliver_status_change").queue_name
    sample = f'consignado_actor_messages_total{{actor="deliver_status_change",outcome="ok",queue="{queue}"}}'
    start = _value(text, sample) if sample in text else 0.0
    with unit_of_work():
        move(proposal, Trigger.SEND_CONTACT)  # one status event: one deliver_status_change message
    drain()
    text = _scrape(client)
    assert _value(text, sample) == start + 1
    assert f'consignado_actor_duration_seconds_count{{actor="deliver_status_change",queue="{queue}"}}' in text


def test_queue_depth_is_read_through_the_reader_the_composition_root_registered(client, monkeypatch):
    monkeypatch.setattr(metrics, "_collector", None)
    monkeypatch.setattr(metrics, "_queue_depth_reader", lambda: {"loans_test_queue": 7})
    assert _value(_scrape(client), 'consignado_queue_depth{queue="loans_test_queue"}') == 7
    monkeypatch.setattr(metrics, "_collector", None)
    metrics.set_queue_depth_reader(None)  # monkeypatch restores the registered reader afterwards
    text = _scrape(client)
    assert "consignado_queue_depth" not in text and _value(text, "consignado_business_metrics_up") == 1

"""`deliveries list|show|replay|counts` and `auctions inject|list` as ops run them."""

from __future__ import annotations

import json
import re

import pytest

from models.db.webhooks import WebhookDelivery
from models.services.webhooks.deliveries import finish


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def _inject(cli, *extra):
    return cli(
        "auctions",
        "inject",
        "--document",
        "12345678901",
        "--name",
        "MARIA SILVA",
        "--balance",
        "1500.00",
        "--installments",
        "24",
        *extra,
    )


def test_auctions_inject_queues_a_delivery_per_auction_partner(cli, receiver, configure_partner, drain):
    # Given partner B has an auction URL
    hook = receiver()
    configure_partner("PARTNER_B", auction_url=hook.url())
    # When ops inject a sandbox auction proposal and the service's worker runs
    result = _inject(cli)
    drain()
    # Then partner B receives it
    assert result.exit_code == 0, result.output
    assert "eligible=True" in result.output
    # The line is printed after the commit: on RabbitMQ a worker may have delivered it already.
    assert re.search(r"\tPARTNER_B:(PENDING|DELIVERED):", result.output), result.output
    assert json.loads(hook.received[0].body)["available_balance"] == "1500.00"


def test_deliveries_list_failed_filters_by_partner(cli, configure_partner):
    # Given failed auction deliveries for partners A and B
    configure_partner("PARTNER_A", auction_url="http://127.0.0.1:9/a")
    configure_partner("PARTNER_B", auction_url="http://127.0.0.1:9/b")
    _inject(cli)
    for delivery in list(WebhookDelivery.select()):  # read first: SQLite snapshot
        finish(delivery, "FAILED", error="HTTP 500")
    # When ops list the failures of partner B
    result = cli("deliveries", "list", "--failed", "--partner", "PARTNER_B")
    # Then only B's line is shown, with its error
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "\tPARTNER_B\tFAILED\t" in lines[0] and "error=HTTP 500" in lines[0]


def test_deliveries_replay_one_and_all_failed(cli, receiver, configure_partner, drain):
    # Given two failed deliveries of partner A (first attempts refused), and its endpoint now fixed
    configure_partner(auction_url="http://127.0.0.1:9/closed")
    _inject(cli)
    _inject(cli)
    drain()
    ids = [d.id for d in WebhookDelivery.select()]
    for delivery in list(WebhookDelivery.select()):  # read first: SQLite snapshot
        finish(delivery, "FAILED", error="connection error")
    hook = receiver()
    configure_partner(auction_url=hook.url())
    # When ops replay one, then all of partner A's remaining failures
    one = cli("deliveries", "replay", ids[0])
    rest = cli("deliveries", "replay", "--partner", "PARTNER_A", "--all-failed")
    drain()
    # Then both are delivered
    assert one.exit_code == 0 and rest.output.strip().endswith("1 deliveries queued again")
    assert {d.status for d in WebhookDelivery.select()} == {"DELIVERED"}
    assert len(hook.received) == 2


def test_replaying_an_unknown_delivery_is_an_error(cli):
    result = cli("deliveries", "replay", "no-such-id")
    assert result.exit_code != 0 and "no delivery no-such-id" in result.output


def test_counts_and_show(cli, configure_partner):
    # Given one failed auction delivery
    configure_partner(auction_url="http://127.0.0.1:9/a")
    _inject(cli)
    delivery = WebhookDelivery.get()
    finish(delivery, "FAILED", error="HTTP 500")
    # Then counts report it and show prints the delivery with its key
    assert json.loads(cli("deliveries", "counts").output) == {"status": 0, "auction": 1}
    shown = json.loads(cli("deliveries", "show", delivery.id).output)
    assert (shown["status"], shown["idempotency_key"]) == ("FAILED", delivery.idempotency_key)

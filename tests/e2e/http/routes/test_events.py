"""GET /v1/events: the origin's status events in order, with the status webhook's body, paginated
by an opaque cursor and kept events.retention_days (README, "Events feed")."""

from __future__ import annotations

from datetime import timedelta

import freezegun
import pytest

from models import runtime
from models.db.events import StatusEvent
from models.db.proposals import Proposal
from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.domain.status_machine import Trigger
from models.services.events import feed
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks.signing import STATUS_FIELD_ORDER
from tests.builders import contacted_proposal

T0 = "2026-03-10T13:00:00Z"
CPFS = ["52998224725", "10000000876", "10000000957", "10000001090", "10000001171"]


@pytest.fixture
def events(client, auth, drain):
    def read(partner: str = "PARTNER_A", **query):
        response = client.get("/v1/events", query_string=query, headers=auth(partner))
        assert response.status_code == 200, response.json
        return response.json

    yield read
    drain()  # the status webhooks these events queued


def moved(proposal: Proposal, trigger: Trigger) -> None:
    with unit_of_work():
        move(Proposal.get_by_id(proposal.id), trigger)


def test_a_status_change_is_listed_with_the_webhooks_body_without_a_webhook_url(client, auth, drain, events):
    start = {"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"}
    proposal_id = client.post("/v1/proposals/start", json=start, headers=auth()).json["proposal_id"]
    contact = {"email": "maria@example.com", "phone": "+5511987654321"}
    assert client.post(f"/v1/proposals/{proposal_id}/contact", json=contact, headers=auth()).status_code == 201
    drain()
    page = events()
    assert len(page["data"]) == 1
    event = page["data"][0]
    assert (event["position"], event["sequence"]) == (1, 1)
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal_id)
    assert delivery.status == "SKIPPED"  # PARTNER_A has no webhook URL: the event is in the feed anyway
    assert event["event"] == delivery.payload
    assert list(event["event"]) == [name for name, _ in STATUS_FIELD_ORDER]
    assert event["event"]["status_change"] == {"old_status": "CREATED", "new_status": "TOKEN_SENT"}
    assert (page["next_cursor"], page["has_more"]) == (event["cursor"], False)


def test_events_come_in_order_across_the_origins_proposals_and_another_origin_sees_none(events):
    first = contacted_proposal(cpf="52998224725", phone="+5511987650001")
    second = contacted_proposal(cpf="10000000876", phone="+5511987650002")
    theirs = contacted_proposal(origin="PARTNER_B", cpf="10000000957", phone="+5511987650003")
    moved(first, Trigger.VALIDATE_TOKEN)
    listed = events()["data"]
    assert [(e["position"], e["event"]["proposal_id"], e["sequence"]) for e in listed] == [
        (1, first.id, 1),
        (2, second.id, 1),
        (3, first.id, 2),
    ]
    assert listed[2]["event"]["status_change"] == {"old_status": "TOKEN_SENT", "new_status": "TOKEN_VALIDATED"}
    other = events("PARTNER_B")["data"]
    assert [(e["position"], e["event"]["proposal_id"]) for e in other] == [(1, theirs.id)]
    assert theirs.id not in {e["event"]["proposal_id"] for e in listed}


def test_pages_follow_the_cursor_and_polling_with_the_last_cursor_finds_new_events(events):
    proposals = [contacted_proposal(cpf=cpf, phone=f"+551198765000{i}") for i, cpf in enumerate(CPFS)]
    pages, after = [], None
    while True:
        page = events(limit=2, **({"after": after} if after else {}))
        pages.append(([e["position"] for e in page["data"]], page["has_more"]))
        after = page["next_cursor"]
        if not page["has_more"]:
            break
    assert pages == [([1, 2], True), ([3, 4], True), ([5], False)]
    assert events(after=after) == {"data": [], "next_cursor": after, "has_more": False}
    moved(proposals[0], Trigger.VALIDATE_TOKEN)
    assert [e["position"] for e in events(after=after)["data"]] == [6]


def test_the_default_page_is_100_and_at_most_500_may_be_asked(client, auth, events):
    assert events() == {"data": [], "next_cursor": None, "has_more": False}
    assert events(limit=500)["data"] == []
    for limit in ("0", "501", "ten"):
        response = client.get(f"/v1/events?limit={limit}", headers=auth())
        assert (response.status_code, response.json["details"]["field"]) == (400, "limit")


@pytest.mark.parametrize("after", ["cDowMQ", "eDox", "YWJj", "cDox=="])
def test_a_cursor_the_feed_did_not_write_is_400(client, auth, after):
    response = client.get("/v1/events", query_string={"after": after}, headers=auth())
    assert response.status_code == 400
    expected = "VALIDATION_ERROR" if "=" in after else "INVALID_CURSOR"  # '=' is outside the pattern
    assert (response.json["errorCode"], response.json["details"]["field"]) == (expected, "after")


def test_the_feed_needs_a_token(client):
    assert client.get("/v1/events").status_code == 401


def test_an_event_is_listed_for_retention_days_then_purged_and_positions_go_on(events):
    days = runtime.current().settings.events.retention_days
    with freezegun.freeze_time(T0) as clock:
        old = contacted_proposal(cpf="52998224725", phone="+5511987650001")
        clock.tick(timedelta(hours=1))
        newer = contacted_proposal(cpf="10000000876", phone="+5511987650002")
        clock.move_to(now() - timedelta(hours=1) + timedelta(days=days) - timedelta(seconds=1))
        assert [e["event"]["proposal_id"] for e in events()["data"]] == [old.id, newer.id]
        clock.tick(timedelta(seconds=1))  # the first event is now exactly retention_days old
        assert [e["event"]["proposal_id"] for e in events()["data"]] == [newer.id]
        assert feed.purge_expired(events_settings=runtime.current().settings.events) == 1
        clock.tick(timedelta(hours=1))  # both gone from the feed; the newest row stays for numbering
        assert events()["data"] == []
        assert feed.purge_expired(events_settings=runtime.current().settings.events) == 0
        assert StatusEvent.select().count() == 1
        moved(newer, Trigger.VALIDATE_TOKEN)
        assert [e["position"] for e in events()["data"]] == [3]


def test_a_reader_polling_while_changes_commit_in_parallel_misses_none(client, auth, events):
    import threading

    proposals = [contacted_proposal(cpf=cpf, phone=f"+551198765000{i}") for i, cpf in enumerate(CPFS)]
    seen: list[int] = []
    writing = threading.Event()
    writing.set()

    def poll() -> None:
        after = None
        while True:
            done = not writing.is_set()
            query = {"limit": 3, **({"after": after} if after else {})}
            page = client.get("/v1/events", query_string=query, headers=auth()).json
            seen.extend(e["position"] for e in page["data"])
            after = page["next_cursor"] or after
            if done and not page["has_more"]:
                return

    def change(proposal) -> None:
        moved(proposal, Trigger.VALIDATE_TOKEN)
        moved(proposal, Trigger.PROPOSAL_EXPIRED)

    reader = threading.Thread(target=poll)
    reader.start()
    writers = [threading.Thread(target=change, args=(p,)) for p in proposals]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(30)
    writing.clear()
    reader.join(30)
    total = len(proposals) * 3
    assert seen == list(range(1, total + 1))  # each once, in order, none skipped
    by_proposal: dict[str, list[int]] = {}
    for event in events(limit=500)["data"]:
        by_proposal.setdefault(event["event"]["proposal_id"], []).append(event["sequence"])
    assert all(sequences == [1, 2, 3] for sequences in by_proposal.values())

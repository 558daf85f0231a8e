"""The document states the Idempotency-Key of every POST under /v1 and the events feed (README,
"Idempotency-Key" and "Events feed")."""

from models.domain.event_feed import MAX_LIMIT
from models.domain.idempotency import KEY_PATTERN


def _posts(document):
    return [
        (path, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if method == "post" and path.startswith("/v1/")
    ]


def test_every_post_under_v1_takes_the_key_and_declares_409_and_422(document):
    posts = _posts(document)
    assert len(posts) >= 15
    for path, operation in posts:
        header = [p for p in operation.get("parameters", []) if p["in"] == "header" and p["name"] == "Idempotency-Key"]
        assert len(header) == 1, path
        assert header[0]["required"] is False
        assert header[0]["schema"] == {"type": "string", "minLength": 1, "maxLength": 255, "pattern": KEY_PATTERN}
        assert "IDEMPOTENCY_KEY_IN_USE" in operation["responses"]["409"]["description"], path
        assert "IDEMPOTENCY_KEY_REUSED" in operation["responses"]["422"]["description"], path
        assert "Idempotency-Key" in operation["responses"]["400"]["description"], path


def test_the_token_route_takes_no_key(document):
    parameters = document["paths"]["/oauth2/token"]["post"].get("parameters", [])
    assert all(p["name"] != "Idempotency-Key" for p in parameters)


def test_the_events_feed_is_documented_with_its_bounds_and_the_webhook_body(document):
    operation = document["paths"]["/v1/events"]["get"]
    parameters = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert parameters["limit"]["maximum"] == MAX_LIMIT and parameters["limit"]["default"] == 100
    assert "pattern" in parameters["after"]
    assert "INVALID_CURSOR" in operation["responses"]["400"]["description"]
    item = document["components"]["schemas"]["FeedEvent"]["properties"]
    assert set(item) == {"position", "cursor", "sequence", "event"}
    body = document["components"]["schemas"]["StatusWebhookBody"]["properties"]
    assert list(body) == ["origin", "timestamp", "event_type", "proposal_id", "proposal_data", "status_change"]

"""Lookups by one column and INSERTs rendered once per shape (models/db/simple_statements.py):
the same rows and the same errors as peewee's own execution, and peewee's path for the rest."""

from __future__ import annotations

from datetime import datetime, timezone

import peewee
import pytest

from models.db import simple_statements
from models.db.database import db
from models.db.proposals import Proposal, StatusChange
from models.db.tables import ALL_TABLES
from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from tests import builders


def _peewee_get(model, expression):
    return peewee.Model.get.__func__(model, expression)


def test_a_lookup_by_one_column_reads_the_row_peewee_reads(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    for expression in (Proposal.id == proposal.id, Proposal.cpf == proposal.cpf):
        fast, slow = Proposal.get(expression), _peewee_get(Proposal, expression)
        assert fast.__data__ == slow.__data__
    assert Proposal.get_by_id(proposal.id).__data__ == _peewee_get(Proposal, Proposal.id == proposal.id).__data__
    change = StatusChange.get(StatusChange.proposal == proposal.id)  # a foreign key, by its id
    assert (change.proposal_id, change.sequence) == (proposal.id, 0)


def test_a_missing_row_raises_does_not_exist_and_get_or_none_answers_none(app):
    with pytest.raises(Proposal.DoesNotExist):
        Proposal.get_by_id("no-such-proposal")
    assert Proposal.get_or_none(Proposal.id == "no-such-proposal") is None
    assert StatusChange.get_or_none(StatusChange.sequence == 987654) is None


def test_other_lookups_stay_with_peewee_and_still_answer(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    # A converted value (a datetime), two conditions, keyword filters, a str against an integer
    # column: none of these is the simple shape, all of them answer as peewee does.
    assert (
        simple_statements.lookup(Proposal, Proposal.created_at == proposal.created_at) is simple_statements.NOT_SIMPLE
    )
    assert Proposal.get(Proposal.created_at == proposal.created_at).id == proposal.id
    as_text = proposal.created_at.strftime("%Y-%m-%d %H:%M:%S.%f")  # peewee parses a str for a date column
    assert simple_statements.lookup(Proposal, Proposal.created_at == as_text) is simple_statements.NOT_SIMPLE
    assert Proposal.get(Proposal.id == proposal.id, Proposal.cpf == proposal.cpf).id == proposal.id
    assert Proposal.get(id=proposal.id).id == proposal.id
    assert StatusChange.get_or_none(StatusChange.sequence == "0", StatusChange.proposal == proposal.id) is not None
    assert StatusChange.get(StatusChange.sequence == "1").sequence == 1


def test_an_insert_writes_the_row_peewee_would_write(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    delivery = WebhookDelivery.create(
        kind="status", partner_code="PARTNER_A", proposal_id=proposal.id, idempotency_key="k-1", payload={"a": [1, "2"]}
    )
    stored = WebhookDelivery.get_by_id(delivery.id)
    assert (stored.payload, stored.status, stored.attempts, stored.next_attempt_at) == (
        {"a": [1, "2"]},
        "PENDING",
        0,
        None,
    )
    assert stored.created_at == delivery.created_at
    assert not delivery.is_dirty()


def test_an_auto_increment_key_is_read_back_on_every_backend(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    delivery = WebhookDelivery.create(
        kind="status", partner_code="PARTNER_A", proposal_id=proposal.id, idempotency_key="k-2", payload={}
    )
    at = datetime(2026, 11, 26, 12, 0, tzinfo=timezone.utc)
    first = DeliveryAttempt.create(delivery=delivery, number=1, url="https://x", request_id="r1", attempted_at=at)
    second = DeliveryAttempt.create(delivery=delivery.id, number=2, url="https://x", request_id="r2", latency_ms=7)
    assert isinstance(first.id, int) and second.id > first.id
    rows = list(DeliveryAttempt.select().where(DeliveryAttempt.delivery == delivery.id).order_by(DeliveryAttempt.id))
    assert [(r.id, r.number, r.latency_ms, r.attempted_at == at) for r in rows] == [
        (first.id, 1, None, True),
        (second.id, 2, 7, False),
    ]


def test_a_duplicate_key_fails_as_with_peewee(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with pytest.raises(peewee.IntegrityError), db.atomic():
        StatusChange.create(proposal=proposal.id, sequence=0, new_status="CREATED", trigger="test")


def test_an_insert_unless_present_inserts_once_and_then_answers_false(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    row = {"kind": "status", "partner_code": "PARTNER_A", "proposal_id": proposal.id, "idempotency_key": "k-3"}
    first = simple_statements.insert_unless_present(WebhookDelivery, {"id": "d-1", "payload": {"n": 1}, **row})
    again = simple_statements.insert_unless_present(WebhookDelivery, {"id": "d-2", "payload": {"n": 2}, **row})
    assert (first, again) == (True, False)
    assert [(d.id, d.payload) for d in WebhookDelivery.select()] == [("d-1", {"n": 1})]


@pytest.mark.parametrize("ignore_conflicts", [False, True], ids=["insert", "unless-present"])
@pytest.mark.parametrize("model", ALL_TABLES, ids=lambda model: model.__name__)
def test_every_table_s_insert_is_rendered_exactly_as_peewee_renders_it(app, model, ignore_conflicts):
    # Every column given (the widest shape), on this run's backend; rendering needs no connection.
    data = {name: None for name in model._meta.fields if not (model._meta.auto_increment and name == "id")}
    assert simple_statements._insert_template(model, data, db.obj, ignore_conflicts=ignore_conflicts) is not None

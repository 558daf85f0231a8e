"""Queries rendered once (models/db/compiled.py): same rows as peewee's own execution."""

from __future__ import annotations

from datetime import timedelta

import pytest

from models.db.compiled import Compiled, CompiledUpdate
from models.db.proposals import Proposal, StatusChange
from tests import builders

_CHANGES = Compiled(
    lambda proposal_id, sequence: (
        StatusChange.select(StatusChange, Proposal)
        .join(Proposal)
        .where(StatusChange.proposal == proposal_id, StatusChange.sequence == sequence)
        .limit(1)
    ),
    str,
    int,
)


def test_each_call_runs_with_its_own_arguments_and_reads_joined_models(app):
    first = builders.proposal(path=("TOKEN_SENT",))
    second = builders.proposal(path=("TOKEN_SENT", "TOKEN_VALIDATED"))
    for proposal, sequence, status in (
        (first, 1, "TOKEN_SENT"),
        (second, 2, "TOKEN_VALIDATED"),
        (second, 0, "CREATED"),
    ):
        change = _CHANGES.first(proposal.id, sequence)
        assert (change.proposal.id, change.proposal.cpf, change.new_status) == (proposal.id, proposal.cpf, status)
    assert _CHANGES.first(first.id, 2) is None
    assert (_CHANGES.exists(second.id, 2), _CHANGES.exists(first.id, 2)) == (True, False)


def test_a_build_that_changes_an_argument_fails_on_first_use(app):
    shifted = Compiled(lambda sequence: StatusChange.select().where(StatusChange.sequence == sequence + 1), int)
    with pytest.raises(ValueError, match="arguments \\[0\\] not in its SQL"):
        shifted.first(1)


@pytest.mark.parametrize("arguments", [("p",), ("p", "1"), ("p", True), ("p", 1, 2)])
def test_arguments_of_another_kind_or_count_are_refused(app, arguments):
    with pytest.raises(TypeError):
        _CHANGES.first(*arguments)


_MOVE_BACK = Compiled(
    lambda status, at, proposal_id, changed_before: Proposal.update(status=status, updated_at=at).where(
        Proposal.id == proposal_id, Proposal.updated_at < changed_before
    ),
    str,
    Proposal.updated_at,
    str,
    Proposal.updated_at,
)


def test_column_arguments_are_converted_by_their_column_and_execute_counts_rows(app):
    from datetime import datetime, timedelta, timezone

    proposal = builders.proposal(path=("TOKEN_SENT",))
    at = datetime(2031, 1, 2, 3, 4, 5, 6000, tzinfo=timezone(timedelta(hours=-3)))  # stored as UTC
    long_ago = datetime(2020, 1, 1, tzinfo=timezone.utc)
    assert _MOVE_BACK.execute("CREATED", at, proposal.id, long_ago) == 0  # updated now, not before 2020
    assert _MOVE_BACK.execute("CREATED", at, proposal.id, at) == 1
    stored = Proposal.get_by_id(proposal.id)
    assert (stored.status, stored.updated_at) == ("CREATED", at)
    assert stored.updated_at.tzinfo is not None and stored.updated_at.utcoffset() == timedelta(0)
    assert _MOVE_BACK.execute("TOKEN_SENT", at, "no-such-proposal", at + timedelta(days=1)) == 0


def test_a_model_row_s_json_columns_are_decoded_when_first_read_and_written_back_unchanged(app):
    from models.db.fields import EncodedJson
    from models.db.webhooks import WebhookDelivery

    proposal = builders.proposal(path=("TOKEN_SENT",))
    payload = {"b": [1, "2", {"c": None}], "a": "ç"}
    WebhookDelivery.create(
        id="d-json",
        kind="status",
        partner_code="PARTNER_A",
        proposal_id=proposal.id,
        idempotency_key="k",
        payload=payload,
    )
    stored_text = WebhookDelivery.select(WebhookDelivery.payload).tuples().get()[0]  # peewee's own read decodes
    assert stored_text == payload

    row = WebhookDelivery.get_by_id("d-json")  # a compiled lookup
    assert type(row.__data__["payload"]) is EncodedJson  # not decoded by the read itself
    assert row.payload == payload and row.payload is row.payload  # decoded once, on first access
    assert not row.is_dirty()

    untouched = WebhookDelivery.get_by_id("d-json")
    untouched.attempts = 3
    untouched.save()  # its payload goes back as the text it was read as
    again = WebhookDelivery.get_by_id("d-json")
    assert (again.attempts, again.payload) == (3, payload)

    as_dicts = Compiled(
        lambda delivery_id: (
            WebhookDelivery.select(WebhookDelivery.payload).where(WebhookDelivery.id == delivery_id).dicts()
        ),
        str,
    )
    assert as_dicts.first("d-json") == {"payload": payload}  # not a model row: decoded as read


_CONTACT = CompiledUpdate(Proposal, lambda proposal_id: Proposal.id == proposal_id, str, shapes=(("email", "phone"),))


def test_an_update_of_varying_columns_is_one_statement_per_set_whatever_the_order_of_its_keys(app):
    first = builders.proposal(path=("TOKEN_SENT",))
    second = builders.proposal(path=("TOKEN_SENT",), cpf="11144477735", phone="11988887777")
    assert len(_CONTACT.statements()) == 1  # the set named at construction
    assert _CONTACT.execute({"phone": "11900001111", "email": "a@example.com"}, first.id) == 1
    assert len(_CONTACT.statements()) == 1  # the same set in another order
    assert _CONTACT.execute({"full_name": "JOANA SOUZA"}, second.id) == 1  # another set: built now
    assert len(_CONTACT.statements()) == 2
    assert _CONTACT.execute({"full_name": "NOBODY"}, "no-such-proposal") == 0
    first, second = Proposal.get_by_id(first.id), Proposal.get_by_id(second.id)
    assert (first.email, first.phone, first.full_name) == ("a@example.com", "11900001111", first.full_name)
    assert (second.full_name, second.phone) == ("JOANA SOUZA", "11988887777")


def test_an_update_of_varying_columns_converts_each_value_by_its_column(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    later = proposal.updated_at + timedelta(minutes=5)
    assert _CONTACT.execute({"updated_at": later}, proposal.id) == 1
    assert Proposal.get_by_id(proposal.id).updated_at == later

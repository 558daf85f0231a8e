"""Requests reuse their schemas: constructing a marshmallow schema deep-copies its declared fields
(and a nested schema's on its first use), so webargs' instance per parsed request and one per
alternative response body cost the API about 3 % of its CPU (BENCHMARKS.md)."""

from __future__ import annotations

import marshmallow
import pytest

from schemas.errors import ErrorSchema

START = {"full_name": "Maria da Silva", "birth_date": "1985-04-12"}
CPFS = iter(("52998224725", "11144477735"))


@pytest.fixture
def constructed(monkeypatch):
    """The schema classes constructed from now on, in order."""
    made: list[str] = []
    original = marshmallow.Schema.__init__

    def counting(self, *args, **kwargs):
        made.append(type(self).__name__)
        original(self, *args, **kwargs)

    monkeypatch.setattr(marshmallow.Schema, "__init__", counting)
    return made


def test_a_parsed_body_and_its_answer_construct_no_schema_after_their_first_use(client, auth, constructed):
    headers = auth("PARTNER_A")

    def requests() -> None:
        started = client.post("/v1/proposals/start", json={**START, "cpf": next(CPFS)}, headers=headers)
        assert started.status_code == 201
        refused = client.post("/v1/proposals/start", json={**START, "cpf": "123"}, headers=headers)
        assert refused.status_code == 400 and refused.json["errorCode"] == "VALIDATION_ERROR"
        detail = client.get(f"/v1/proposals/{started.json['proposal_id']}", headers=headers)
        assert detail.status_code == 200

    requests()  # a first use (here or in an earlier test) builds what a route and its nested schemas keep
    del constructed[:]
    requests()
    assert constructed == [], constructed


def test_an_alternative_body_is_dumped_by_one_instance_per_schema_class(app):
    # httpapi is the http/ package, mounted under that name when the app is made (app.py)
    instance_of = __import__("httpapi.presenters.responses", fromlist=["instance_of"]).instance_of
    assert instance_of(ErrorSchema) is instance_of(ErrorSchema)
    assert isinstance(instance_of(ErrorSchema), ErrorSchema)
    given = ErrorSchema()
    assert instance_of(given) is given

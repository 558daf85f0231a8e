"""The request id of an HTTP request follows every actor message it causes, into the actor logs."""

import logging

import dramatiq
import pytest

from tests.support.log_capture import captured_logs

log = logging.getLogger("tests.probe")


@pytest.fixture(scope="module")
def probe_actors(broker):
    """Two actors: the first enqueues the second through the outbox, as real actors chain work."""
    from models.services.platform.unit_of_work import enqueue, unit_of_work
    from rabbitmq.queues import SCHEDULER, queue_name

    if "request_id_probe_first" not in broker.actors:

        @dramatiq.actor(actor_name="request_id_probe_first", queue_name=queue_name(SCHEDULER), max_retries=0)
        def request_id_probe_first(proposal_id):
            log.info("first hop working")
            with unit_of_work():
                enqueue("request_id_probe_second", proposal_id)

        @dramatiq.actor(actor_name="request_id_probe_second", queue_name=queue_name(SCHEDULER), max_retries=0)
        def request_id_probe_second(proposal_id):
            log.info("second hop working")


@pytest.fixture(scope="module")
def probe_client(app, probe_actors):
    """A fresh app from the composition root with one route that creates a proposal and enqueues."""
    import app as composition
    from models.db.proposals import Proposal
    from models.domain.clock import now
    from models.domain.status_machine import Trigger
    from models.services.platform.proposal_status import move, record_creation
    from models.services.platform.unit_of_work import enqueue, unit_of_work

    probe_app = composition.create_app()
    probe_app.config["TESTING"] = True

    @probe_app.post("/probe/proposals")
    def create_probe_proposal():
        with unit_of_work():
            proposal = Proposal.create(
                origin="PARTNER_A",
                product_id="p",
                cpf="52998224725",
                full_name="ANA",
                birth_date=now().date(),
                status="CREATED",
            )
            record_creation(proposal)
            move(proposal, Trigger.SEND_CONTACT)  # its status event: a deliver_status_change message
            enqueue("request_id_probe_first", proposal.id)
        return {"proposal_id": proposal.id}, 201

    return probe_app.test_client()


def _actor_lines(handler):
    return [entry for entry in handler.entries() if entry.get("actor")]


def test_request_id_reaches_every_actor_log_line_it_causes(probe_client, drain):
    # Given a request carrying X-Request-Id
    with captured_logs() as handler:
        response = probe_client.post("/probe/proposals", headers={"X-Request-Id": "req-flow-0001"})
        # When the work it caused runs (two chained hops and the status event)
        drain()
    proposal_id = response.get_json()["proposal_id"]
    lines = _actor_lines(handler)
    # Then every actor line carries the request id, and the actors are the expected ones
    assert {entry["actor"] for entry in lines} == {
        "deliver_status_change",
        "request_id_probe_first",
        "request_id_probe_second",
    }
    assert {entry.get("request_id") for entry in lines} == {"req-flow-0001"}
    # And the lines logged by the actor's own code carry the proposal id bound by the middleware
    hops = [entry for entry in lines if entry["message"].endswith("hop working")]
    assert [(entry["message"], entry["proposal_id"]) for entry in hops] == [
        ("first hop working", proposal_id),
        ("second hop working", proposal_id),
    ]


def test_actor_start_and_finish_lines_name_actor_queue_duration_and_proposal(probe_client, drain):
    with captured_logs() as handler:
        probe_client.post("/probe/proposals", headers={"X-Request-Id": "req-flow-0002"})
        drain()
    second = [entry for entry in _actor_lines(handler) if entry["actor"] == "request_id_probe_second"]
    start, finish = [entry for entry in second if entry["message"].startswith("actor ")]
    assert start["message"] == "actor start request_id_probe_second"
    assert finish["message"] == "actor finish request_id_probe_second"
    assert start["queue"].endswith("scheduler") and finish["queue"] == start["queue"]
    assert finish["outcome"] == "ok" and finish["duration_ms"] >= 0
    assert start["proposal_id"] == finish["proposal_id"] and len(finish["proposal_id"]) == 36


def test_outbox_row_keeps_the_request_id(probe_client, drain):
    from models.db.outbox import OutboxMessage

    probe_client.post("/probe/proposals", headers={"X-Request-Id": "req-flow-0003"})
    assert {row.request_id for row in OutboxMessage.select()} == {"req-flow-0003"}
    drain()


def test_request_without_the_header_gets_its_own_id_echoed(probe_client, drain):
    response = probe_client.post("/probe/proposals")
    drain()
    assert len(response.headers["X-Request-Id"]) == 32

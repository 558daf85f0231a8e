"""Fixtures for webhook tests: a local receiver, proposals with status changes, dead letters."""
from __future__ import annotations

from datetime import date

import pytest

from tests import backends
from tests.support.receiver import LocalReceiver


@pytest.fixture
def receiver():
    """``receiver(script=[500, 200])`` starts a local endpoint; all are stopped after the test."""
    started: list[LocalReceiver] = []

    def start(script=None, default=200, delay=0.0) -> LocalReceiver:
        server = LocalReceiver(script, default, delay).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def configure_partner():
    """Set partner fields the way ops would (`partners update`)."""
    from models.db.partners import Partner
    from models.services.partners.accounts import update_partner

    def apply(code: str = "PARTNER_A", **fields):
        return update_partner(Partner.get(Partner.code == code), **fields)

    return apply


@pytest.fixture
def new_proposal():
    """Insert a proposal and record its creation (CREATED, sequence 0) like the start route does."""
    from models.db.proposals import Proposal
    from models.services.platform.proposal_status import record_creation
    from models.services.platform.unit_of_work import unit_of_work

    def create(origin: str = "PARTNER_A", cpf: str = "12345678901", phone: str | None = "+5511987654321"):
        with unit_of_work():
            proposal = Proposal.create(origin=origin, product_id="00000000-0000-0000-0000-000000000001",
                                       cpf=cpf, full_name="MARIA SILVA", birth_date=date(1990, 1, 2),
                                       phone=phone, status="CREATED")
            record_creation(proposal)
        return proposal

    return create


@pytest.fixture
def settle(drain, broker):
    """drain() that tolerates dead-lettered messages (the stub broker re-raises their error on join)
    and counts them: ``settle.dead_lettered(STATUS_WEBHOOK)``, on either backend."""
    from rabbitmq.queues import queue_name

    captured: list = []

    def _xq(family: str) -> int:
        return broker.get_queue_message_counts(queue_name(family))[2]

    def run() -> None:
        for _ in range(10):
            try:
                drain()
                return
            except Exception:
                if backends.BACKEND == "services" or not broker.dead_letters:
                    raise
                captured.extend(broker.dead_letters)
                for messages in broker.dead_letters_by_queue.values():
                    messages.clear()
        raise AssertionError("work did not settle")

    families = ("status_webhook", "auction_webhook")
    baseline = {f: _xq(f) for f in families} if backends.BACKEND == "services" else {}

    def dead_lettered(family: str) -> int:
        if backends.BACKEND == "services":
            return _xq(family) - baseline[family]
        return sum(1 for m in captured if m.queue_name == queue_name(family))

    run.dead_lettered = dead_lettered
    yield run
    if backends.BACKEND != "services":  # leave no stub dead letter behind for other tests' drain()
        for messages in broker.dead_letters_by_queue.values():
            messages.clear()

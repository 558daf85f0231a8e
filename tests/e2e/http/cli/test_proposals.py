"""`proposals stuck|reconcile`: the money path's stalled steps and forcing them now; the gauge."""

import json
from datetime import timedelta

import pytest

from models.db.contracts import Contract
from models.db.money_path import MoneyPathStep
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.domain.clock import now
from tests import builders

# The re-driven messages stay in the outbox (asserted there), so no worker runs them against the
# builders' rows while the next test empties the tables.
pytestmark = pytest.mark.usefixtures("held_outbox")


def run(app, *args):
    return app.test_cli_runner().invoke(args=["proposals", *args])


def stalled(status="SIGNED", **record):
    proposal = builders.pre_accepted_proposal(status=status)
    contract = builders.contract(proposal, status="SIGNED", post_signature_route="ENDORSEMENT")
    fields = dict(contract_id=contract.id, step="ENDORSE", due_at=now() - timedelta(minutes=5), attempts=0)
    fields.update(record)
    MoneyPathStep.create(proposal_id=proposal.id, **fields)
    return proposal, contract


def test_stuck_lists_the_step_attempts_next_attempt_and_last_error(app):
    proposal, contract = stalled(attempts=3, next_attempt_at=now() + timedelta(minutes=4), last_error="Boom: db")
    stalled_later, _ = stalled(due_at=now())  # its first attempt is not late yet
    result = run(app, "stuck")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["proposal_id"] for line in lines] == [proposal.id]
    assert {k: lines[0][k] for k in ("contract_id", "step", "attempts", "last_error")} == {
        "contract_id": contract.id,
        "step": "ENDORSE",
        "attempts": 3,
        "last_error": "Boom: db",
    }
    assert lines[0]["next_attempt_at"] and stalled_later.id not in result.output


def test_reconcile_re_drives_the_step_now(app):
    proposal, contract = stalled(attempts=1, next_attempt_at=now() + timedelta(hours=1))
    result = run(app, "reconcile", proposal.id)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"proposal_id": proposal.id, "redriven": "ENDORSE"}
    assert OutboxMessage.get(OutboxMessage.actor_name == "endorse_contract").args == [contract.id]
    assert MoneyPathStep.get_by_id(proposal.id).attempts == 2


def test_reconcile_all_finishes_what_closed_and_re_drives_the_rest(app):
    open_one, _ = stalled()
    closed, _ = stalled()
    Proposal.update(status="DISBURSED").where(Proposal.id == closed.id).execute()
    result = run(app, "reconcile", "--all")
    assert result.exit_code == 0, result.output
    answers = {line["proposal_id"]: line["redriven"] for line in map(json.loads, result.output.splitlines())}
    assert answers == {open_one.id: "ENDORSE", closed.id: None}
    assert MoneyPathStep.get_by_id(closed.id).finished_at is not None


def test_reconcile_needs_ids_or_all(app):
    assert run(app, "reconcile").exit_code != 0


def test_the_gauge_counts_the_re_driven_steps(app, client):
    stalled(attempts=2, next_attempt_at=now() + timedelta(minutes=2))
    stalled(due_at=now())
    text = client.get("/metrics").get_data(as_text=True)
    assert "consignado_money_path_stuck 1.0" in text
    assert Contract.select().count() == 2

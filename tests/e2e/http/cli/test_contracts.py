"""`contracts withdraw`: CANCELLED_BY_USER after disbursement, only through ops."""

from models.db.proposals import Proposal, StatusChange
from models.domain.clock import now
from tests.builders import disbursed_proposal, pre_accepted_proposal


def run(app, *args):
    return app.test_cli_runner().invoke(args=["contracts", "withdraw", *args])


def test_withdraw_moves_a_disbursed_proposal_to_cancelled_by_user(app):
    proposal = disbursed_proposal()
    result = run(app, proposal.id)
    assert result.exit_code == 0, result.output
    assert Proposal.get_by_id(proposal.id).status == "CANCELLED_BY_USER"
    change = (
        StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence.desc()).get()
    )
    assert (change.source, change.trigger) == ("ops", "CUSTOMER_WITHDRAWAL")


def test_withdraw_refuses_a_proposal_not_disbursed(app):
    proposal = pre_accepted_proposal(status="AWAITING_SIGNATURE")
    result = run(app, proposal.id)
    assert result.exit_code != 0 and "not allowed" in result.output
    assert Proposal.get_by_id(proposal.id).status == "AWAITING_SIGNATURE"


def test_withdraw_unknown_proposal(app):
    assert "no proposal" in run(app, "0f8fad5b-d9cb-469f-a165-70867728950e").output


def test_what_a_command_queues_outlives_the_command(app, drain):
    """A CLI process has no worker of its own: without RabbitMQ, the status webhook the withdrawal
    queues stays in the outbox for the running service's sweeper instead of dying with an
    in-process broker; with RabbitMQ it is published at once."""
    from models import runtime
    from models.db.outbox import OutboxMessage

    proposal = disbursed_proposal()
    started = OutboxMessage.select().count()
    assert run(app, proposal.id).exit_code == 0
    queued = OutboxMessage.select().order_by(OutboxMessage.created_at)[started:]
    assert queued, "the withdrawal queues its status webhook"
    published = {row.published_at is not None for row in queued}
    assert published == {runtime.current().settings.uses_rabbitmq}
    drain()
    assert (
        OutboxMessage.select().where(OutboxMessage.published_at.is_null(), OutboxMessage.deliver_at <= now()).count()
        == 0
    )

"""The money path record follows the facts read in one round trip (contract, provider's finished
result, record), and agrees with facts_of, which reads them one by one (the re-drive's way)."""

import pytest

from models.db.contracts import Contract
from models.db.money_path import MoneyPathStep
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.domain.money_path import Step, step_for
from models.services.money_path import tracking
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import unit_of_work
from tests import builders
from tests.support.sent_statements import SentStatements

pytestmark = pytest.mark.usefixtures("held_outbox")


def _track(proposal: Proposal, contract: Contract) -> Step | None:
    with unit_of_work():
        return tracking.track(locked_proposal(proposal.id), contract.id)


def _finished_result_arrives(process_id: str) -> None:
    with unit_of_work():
        OutboxMessage.create(
            actor_name="handle_signature_result",
            args=[process_id, tracking.SIGNATURE_FINISHED, {}],
            dedup_key=tracking.signature_result_key(process_id),
        )


def _agrees_with_facts_of(proposal: Proposal, contract: Contract, step: Step | None) -> None:
    fresh_proposal, fresh_contract = Proposal.get_by_id(proposal.id), Contract.get_by_id(contract.id)
    assert step_for(tracking.facts_of(fresh_proposal, fresh_contract)) == step


def test_awaiting_signature_has_no_step_until_the_providers_finished_result_is_in():
    proposal = builders.pre_accepted_proposal(status="AWAITING_SIGNATURE")
    contract = builders.contract(proposal, status="CONTRACT_GENERATED", unico_process_id="proc-track-1")
    _finished_result_arrives("proc-track-other")  # another contract's result does not count
    assert _track(proposal, contract) is None
    assert MoneyPathStep.get_or_none(MoneyPathStep.proposal_id == proposal.id) is None
    _agrees_with_facts_of(proposal, contract, None)

    _finished_result_arrives("proc-track-1")
    assert _track(proposal, contract) is Step.SIGNATURE_RESULT
    assert MoneyPathStep.get_by_id(proposal.id).step == "SIGNATURE_RESULT"
    _agrees_with_facts_of(proposal, contract, Step.SIGNATURE_RESULT)


def test_a_contract_without_a_signing_process_never_counts_a_result():
    proposal = builders.pre_accepted_proposal(status="AWAITING_SIGNATURE")
    contract = builders.contract(proposal, status="CONTRACT_GENERATED", unico_process_id=None)
    _finished_result_arrives("")  # a key with an empty process id matches no contract
    assert _track(proposal, contract) is None
    _agrees_with_facts_of(proposal, contract, None)


def test_the_record_starts_moves_on_and_finishes_with_the_facts():
    proposal = builders.pre_accepted_proposal(status="SIGNED")
    contract = builders.contract(proposal, status="SIGNED")
    assert _track(proposal, contract) is Step.ROUTE
    started = MoneyPathStep.get_by_id(proposal.id)
    assert (started.step, started.finished_at) == ("ROUTE", None)

    assert _track(proposal, contract) is Step.ROUTE  # same step: the record is left as it is
    assert MoneyPathStep.get_by_id(proposal.id).step_since == started.step_since

    Contract.update(post_signature_route=tracking.ENDORSEMENT_ROUTE).where(Contract.id == contract.id).execute()
    assert _track(proposal, contract) is Step.ENDORSE
    Contract.update(endorsement_id="end-1").where(Contract.id == contract.id).execute()
    assert _track(proposal, contract) is Step.DISBURSE
    assert MoneyPathStep.get_by_id(proposal.id).step == "DISBURSE"
    _agrees_with_facts_of(proposal, contract, Step.DISBURSE)

    Proposal.update(status="DISBURSED").where(Proposal.id == proposal.id).execute()
    assert _track(proposal, contract) is None
    assert MoneyPathStep.get_by_id(proposal.id).finished_at is not None


def test_another_proposals_record_is_not_this_ones():
    first = builders.pre_accepted_proposal(status="SIGNED")
    first_contract = builders.contract(first, status="SIGNED")
    _track(first, first_contract)
    second = builders.pre_accepted_proposal(status="SIGNED", cpf="11144477735")
    second_contract = builders.contract(second, status="SIGNED")
    assert _track(second, second_contract) is Step.ROUTE
    assert MoneyPathStep.get_by_id(second.id).contract_id == second_contract.id
    assert MoneyPathStep.get_by_id(first.id).contract_id == first_contract.id


def test_an_unknown_contract_is_refused():
    proposal = builders.pre_accepted_proposal(status="SIGNED")
    with pytest.raises(Contract.DoesNotExist), unit_of_work():
        tracking.track(locked_proposal(proposal.id), "00000000-0000-4000-8000-00000000dead")


def test_the_facts_and_the_record_are_one_read(monkeypatch):
    proposal = builders.pre_accepted_proposal(status="SIGNED")
    contract = builders.contract(proposal, status="SIGNED")
    _track(proposal, contract)  # the record exists: the same step reads and writes nothing else
    with unit_of_work():
        locked = locked_proposal(proposal.id)
        statements = SentStatements(monkeypatch)
        assert tracking.track(locked, contract.id) is Step.ROUTE
        monkeypatch.undo()
    assert len(statements.sql) == 1, statements.sql

"""The services' queries rendered once (models/db/compiled.py): each renders on this backend, and
the reads and writes whose rows depend on ordering, NULLs, a join or the length of a list answer as
peewee's own queries did."""

from __future__ import annotations

import importlib
import pkgutil
from datetime import timedelta

from models import services
from models.db.analysis import CreditAnalysis, Offer
from models.db.banking import BankDataSubmission
from models.db.compiled import Compiled, CompiledUpdate
from models.db.contact import ContactToken
from models.db.proposals import Proposal
from models.db.simulations import Simulation
from models.domain.clock import now
from models.services.banking.disbursement_data import supersede_pending
from models.services.contract import signature
from models.services.contract.with_proposal import contract_with_proposal
from models.services.credit import analysis_runner
from models.services.credit.contact import _active_token
from models.services.credit.offers import store_offers
from models.services.credit.simulation import simulation_offers
from models.services.platform.unit_of_work import unit_of_work
from tests import builders
from tests.support.sent_statements import SentStatements


def _compiled_queries():
    for module_info in pkgutil.walk_packages(services.__path__, f"{services.__name__}."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if isinstance(value, dict):
                values = value.values()
            elif isinstance(value, CompiledUpdate):
                values = value.statements()
            else:
                values = (value,)
            for query in values:
                if isinstance(query, Compiled):
                    yield f"{module_info.name}.{name}", query


def test_every_compiled_query_of_the_services_renders_on_this_backend(app):
    names = []
    for name, query in _compiled_queries():
        query.prepare()  # raises when an argument does not reach the SQL
        names.append(name)
    assert "models.services.contract.signature._SIGNED" in names
    assert "models.services.credit.simulation._OFFERS_WITH_IDS" in names
    assert names.count("models.services.credit.analysis_runner._FINISH") >= 4  # an UPDATE per outcome


def test_the_active_token_is_the_newest_unused_one_the_latest_id_breaking_a_tie(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    at = now()

    def token(**fields) -> ContactToken:
        row = dict(proposal=proposal.id, phone=proposal.phone, token_hash="h", expires_at=at + timedelta(minutes=5))
        return ContactToken.create(**row, **fields)

    assert _active_token(proposal) is None
    token(created_at=at - timedelta(seconds=1))
    first, second = token(created_at=at), token(created_at=at)  # the same instant (a frozen clock)
    token(created_at=at + timedelta(seconds=1), superseded_at=at)
    token(created_at=at + timedelta(seconds=2), consumed_at=at)
    assert _active_token(proposal).id == second.id > first.id


def test_a_simulation_s_offers_come_in_its_order_without_those_no_longer_stored(app):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    offers = [builders.offer(proposal, source="simulation") for _ in range(9)]
    ids = [offer.id for offer in offers]

    def read(offer_ids):
        return [offer.id for offer in simulation_offers(Simulation(offer_ids=offer_ids))]

    assert read(None) == read([]) == []
    assert read([ids[2], "gone", ids[0]]) == [ids[2], ids[0]]  # a compiled length
    assert read(ids[::-1]) == ids[::-1]  # longer than any simulation makes: peewee's own
    assert read(ids[:8]) == ids[:8]  # the longest compiled length


def test_a_new_submission_supersedes_every_pending_one_of_its_proposal_and_only_those(app):
    def submission(proposal, state="PENDING") -> BankDataSubmission:
        return BankDataSubmission.create(proposal=proposal.id, payload={"use_pix_cpf": True}, state=state)

    def states(*rows) -> list[tuple[str, bool]]:
        fresh = [BankDataSubmission.get_by_id(row.id) for row in rows]
        return [(row.state, row.finished_at is not None) for row in fresh]

    one, two, other = (builders.proposal(path=("TOKEN_SENT",)) for _ in range(3))
    alone, done = submission(one), submission(one, state="DONE")
    first, second, elsewhere = submission(two), submission(two), submission(other)
    with unit_of_work():
        supersede_pending(one.id)  # one pending: the compiled UPDATE
        supersede_pending(two.id)  # two: peewee's UPDATE of the list
    assert states(alone, done) == [("SUPERSEDED", True), ("DONE", False)]
    assert states(first, second, elsewhere) == [("SUPERSEDED", True), ("SUPERSEDED", True), ("PENDING", False)]


def test_a_contract_comes_with_its_proposal_in_one_statement_and_a_missing_one_is_none(app, monkeypatch):
    proposal = builders.pre_accepted_proposal(status="SIGNED")
    contract = builders.contract(proposal, status="SIGNED")
    statements = SentStatements(monkeypatch)
    read = contract_with_proposal(contract.id)
    assert (read.id, read.proposal_id, read.status) == (contract.id, proposal.id, "SIGNED")
    assert (read.proposal.id, read.proposal.status, read.proposal.full_name) == (
        proposal.id,
        "SIGNED",
        "MARIA DA SILVA",
    )
    assert len(statements.sql) == 1, statements.sql  # the proposal came with the contract: no lazy load
    assert contract_with_proposal("00000000-0000-4000-8000-00000000dead") is None


def test_stored_offers_supersede_the_proposal_s_active_ones_but_the_kept_one(app):
    proposal, other = builders.proposal(path=("TOKEN_SENT",)), builders.proposal(path=("TOKEN_SENT",))
    long_ago = now() - timedelta(days=3)
    kept, active = builders.offer(proposal), builders.offer(proposal)
    old, elsewhere = builders.offer(proposal, superseded_at=long_ago), builders.offer(other)

    def superseded() -> dict[str, object]:
        rows = Offer.select().where(Offer.id.in_([kept.id, active.id, old.id, elsewhere.id]))
        return {row.id: row.superseded_at for row in rows}

    with unit_of_work():
        store_offers(Proposal.get_by_id(proposal.id), [], source="simulation", keep_id=kept.id)
    first = superseded()
    assert first[kept.id] is None and first[active.id] is not None and first[elsewhere.id] is None
    assert first[old.id] == long_ago  # already superseded: its time stays
    with unit_of_work():
        store_offers(Proposal.get_by_id(proposal.id), [], source="analysis")  # nothing kept
    second = superseded()
    assert second[kept.id] is not None and second[active.id] == first[active.id] and second[elsewhere.id] is None


def test_an_analysis_outcome_is_written_once_with_its_own_columns(app):
    analysis = builders.analysis_in_progress()
    proposal = Proposal.get_by_id(analysis.proposal_id)
    with unit_of_work():
        assert analysis_runner._finish(
            analysis, proposal, "REJECTED", rejection_reason="AGE", available_margin=None, margin_snapshot=None
        )
        assert not analysis_runner._finish(  # finished already: another outcome changes nothing
            analysis, proposal, "FAILED", error_code="X", retryable=True, margin_snapshot=None, engine_result={}
        )
    stored = CreditAnalysis.get_by_id(analysis.id)
    assert (stored.outcome, stored.rejection_reason, stored.error_code, stored.retryable) == (
        "REJECTED",
        "AGE",
        None,
        False,
    )
    assert stored.finished_at is not None  # the proposal's now, when not given


def test_an_outcome_with_columns_no_outcome_writes_yet_is_written_all_the_same(app):
    analysis = builders.analysis_in_progress()
    proposal = Proposal.get_by_id(analysis.proposal_id)
    with unit_of_work():  # a set of columns none of the four outcomes gives: built on first use
        assert analysis_runner._finish(analysis, proposal, "FAILED", error_code="CRA-INT-001")
    stored = CreditAnalysis.get_by_id(analysis.id)
    assert (stored.outcome, stored.error_code, stored.finished_at is not None) == ("FAILED", "CRA-INT-001", True)


def test_a_signing_result_of_an_unknown_process_finds_no_contract(app):
    with unit_of_work():
        assert signature._open_contract("no-such-process") is None

"""What a hybrid request reads to answer: the wait's last poll is the row it answers with (no read of
its own after the wait), a decided banking verdict needs no abandon, and the request's partner (read
by the bearer check) is not read again."""

from __future__ import annotations

from datetime import date

import pytest

from models import runtime
from models.db.analysis import CreditAnalysis
from models.db.banking import BankDataSubmission
from models.db.partners import Partner
from models.db.simulations import Simulation
from models.domain.errors import DomainError
from models.services.banking.bank_validation import PIX
from models.services.banking.submission import _await_verdict
from models.services.credit.analysis_reads import await_analysis, finished_analysis
from models.services.credit.simulation import await_simulation
from models.services.credit.start import start_proposal
from models.services.platform.proposal_status import ConcurrentChange
from tests import builders
from tests.support.sent_statements import SentStatements


def _reads_of(statements: SentStatements, table: str) -> list[str]:
    return [sql for sql in statements.texts if f'FROM "{table}"' in sql]


@pytest.mark.parametrize(("outcome", "timeout"), [("APPROVED", 5.0), ("IN_PROGRESS", 0.0)])
def test_an_analysis_wait_answers_with_the_row_its_last_poll_read(app, monkeypatch, outcome, timeout):
    analysis = builders.analysis(builders.proposal(path=("TOKEN_SENT",)), outcome=outcome)
    statements = SentStatements(monkeypatch)
    answered = await_analysis(analysis, timeout)
    assert (answered.id, answered.outcome, answered.max_loan_amount) == (analysis.id, outcome, analysis.max_loan_amount)
    assert len(statements.sql) == 1, statements.sql  # the poll; no read after it


def test_an_analysis_removed_while_waited_for_is_not_answered(app):
    analysis = builders.analysis(builders.proposal(path=("TOKEN_SENT",)))
    CreditAnalysis.delete_by_id(analysis.id)
    with pytest.raises(CreditAnalysis.DoesNotExist):
        await_analysis(analysis, 5.0)


@pytest.mark.parametrize(("status", "timeout"), [("DONE", 5.0), ("PENDING", 0.0)])
def test_a_simulation_wait_answers_with_the_row_its_last_poll_read(app, monkeypatch, status, timeout):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    simulation = Simulation.create(proposal=proposal.id, mode="installments", installments=24, status=status)
    statements = SentStatements(monkeypatch)
    answered = await_simulation(simulation, timeout)
    assert (answered.id, answered.status, answered.installments) == (simulation.id, status, 24)
    assert len(statements.sql) == 1, statements.sql


def _submission(state: str, **fields) -> BankDataSubmission:
    proposal = builders.proposal(path=("TOKEN_SENT",))
    return BankDataSubmission.create(proposal=proposal.id, payload={"use_pix_cpf": True}, state=state, **fields)


def test_a_decided_banking_verdict_is_answered_from_the_poll_without_an_abandon(app, monkeypatch):
    submission = _submission("DONE", http_status=200, ok=True, result_status="VALID")
    statements = SentStatements(monkeypatch)
    verdict = _await_verdict(submission.id, 5.0, PIX, submission.proposal_id)
    assert (verdict.http_status, verdict.ok, verdict.result_status) == (200, True, "VALID")
    assert len(statements.sql) == 1, statements.sql  # the poll: no UPDATE, no second read


def test_a_banking_verdict_not_in_by_the_deadline_is_abandoned(app):
    submission = _submission("PENDING")
    with pytest.raises(DomainError) as refused:
        _await_verdict(submission.id, 0.0, PIX, submission.proposal_id)
    assert refused.value.http_status == 503
    assert BankDataSubmission.get_by_id(submission.id).state == "ABANDONED"


def test_a_superseded_banking_submission_answers_a_concurrent_change(app):
    submission = _submission("SUPERSEDED")
    with pytest.raises(ConcurrentChange):
        _await_verdict(submission.id, 5.0, PIX, submission.proposal_id)


def test_a_finished_analysis_takes_the_request_s_partner_and_reads_its_own_origin_s_otherwise(app, monkeypatch):
    proposal = builders.proposal(path=("TOKEN_SENT",))  # PARTNER_A's
    analysis = builders.analysis(proposal)
    origin = Partner.get(Partner.code == "PARTNER_A")
    other = Partner.get(Partner.code == "PARTNER_B")
    Partner.update(insurance_enabled=True).where(Partner.id == origin.id).execute()
    origin.insurance_enabled = False  # as the request read it: the request's row is the one used

    statements = SentStatements(monkeypatch)
    assert finished_analysis(analysis, origin).insurance_enabled is False
    assert _reads_of(statements, "partner") == []
    assert finished_analysis(analysis, other).insurance_enabled is True  # the origin's, read
    assert len(_reads_of(statements, "partner")) == 1


@pytest.mark.parametrize(("recontracting", "snapshot_reads"), [(False, 1), (True, 2)])
def test_a_start_reads_no_partner_and_the_cpf_s_proposals_before_its_lock_only_to_recontract(
    app, monkeypatch, configure_partner, recontracting, snapshot_reads
):
    partner = configure_partner("PARTNER_A", recontracting_enabled=recontracting)
    rt = runtime.current()
    statements = SentStatements(monkeypatch)
    proposal, created = start_proposal(
        partner,
        builders.next_cpf(),
        "Maria da Silva",
        date(1985, 4, 12),
        collections=rt.ports.collections,
        products_settings=rt.settings.products,
        lifecycle_settings=rt.settings.lifecycle,
        credit_settings=rt.settings.credit,
        contract_settings=rt.settings.contract,
    )
    assert created and proposal.origin == "PARTNER_A"
    assert _reads_of(statements, "partner") == []
    snapshots = [sql for sql in _reads_of(statements, "proposal") if "ORDER BY" in sql and "created_at" in sql]
    assert len(snapshots) == snapshot_reads, statements.sql

"""Fake adapters for use-case tests: each answers what the test scripts and notes every call, so a
test passes it where the use case takes its port (``payroll=FakePayroll(...)``), nothing patched.
Pure Python: the unit layer uses them too."""

from __future__ import annotations

from decimal import Decimal

from models.external.account_ownership.port import CONFIRMED, AccountOwnership, BankAccount
from models.external.credit_engine.port import CreditEngineError, CreditEnginePort, EngineDecision
from models.external.fraud.port import FraudAnalysis, FraudCase
from models.external.payroll.port import MarginResult, PayrollPort, PayrollUnavailable
from models.external.pix_directory.port import PixDirectory, PixKeyInfo


class FakePayroll(PayrollPort):
    """Answers ``margin`` (``answer``, or raises ``failure``); ``calls`` lists (cpf, attempt)."""

    def __init__(self, margin: str = "1000.00", failure: PayrollUnavailable | None = None) -> None:
        self.answer = MarginResult(available_margin=Decimal(margin), employer_document="00000000000191")
        self.failure = failure
        self.calls: list[tuple[str, int]] = []

    def query_margin(self, cpf: str, *, attempt: int = 1) -> MarginResult:
        self.calls.append((cpf, attempt))
        if self.failure is not None:
            raise self.failure
        return self.answer


class FakeCreditEngine(CreditEnginePort):
    """Answers ``decision`` (or raises ``error``); ``calls`` lists (cpf, margin, promotional)."""

    def __init__(self, decision: EngineDecision | None = None, error: CreditEngineError | None = None) -> None:
        self.decision = decision or EngineDecision(approved=True, max_installments=96, score=720)
        self.error = error
        self.calls: list[tuple[str, Decimal, bool]] = []

    def evaluate(self, cpf: str, available_margin: Decimal, *, promotional: bool = False) -> EngineDecision:
        self.calls.append((cpf, available_margin, promotional))
        if self.error is not None:
            raise self.error
        return self.decision


class FakeFraud(FraudAnalysis):
    """Flags cases when ``attention``; decides ``decision``; ``asked`` lists the screened cases."""

    def __init__(self, attention: bool = False, decision: tuple[bool, str] = (True, "fake: approved")) -> None:
        self.attention, self.decision = attention, decision
        self.asked: list[FraudCase] = []

    def needs_attention(self, case: FraudCase) -> bool:
        self.asked.append(case)
        return self.attention

    def decide(self, case: FraudCase) -> tuple[bool, str]:
        return self.decision


class FakePixDirectory(PixDirectory):
    """Answers ``info`` (or raises ``error``); ``lookups`` lists (key, key_type, requester_document)."""

    def __init__(self, info: PixKeyInfo | None = None, error: Exception | None = None) -> None:
        self.info, self.error = info, error
        self.lookups: list[tuple[str, str, str]] = []

    def lookup(self, key: str, key_type: str, *, requester_document: str) -> PixKeyInfo:
        self.lookups.append((key, key_type, requester_document))
        if self.error is not None:
            raise self.error
        assert self.info is not None, "script the answer: FakePixDirectory(info=...)"
        return self.info


class FakeAccountOwnership(AccountOwnership):
    """Answers ``result`` (or raises ``error``); ``checks`` lists (account, holder_document)."""

    def __init__(self, result: str = CONFIRMED, error: Exception | None = None) -> None:
        self.result, self.error = result, error
        self.checks: list[tuple[BankAccount, str]] = []

    def check(self, account: BankAccount, *, holder_document: str) -> str:
        self.checks.append((account, holder_document))
        if self.error is not None:
            raise self.error
        return self.result

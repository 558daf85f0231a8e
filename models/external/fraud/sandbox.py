"""Sandbox fraud analysis: CPF 10000000876 is reviewed and approved, 10000000957 reviewed and
reproved; any other case under review (by amount) is approved."""

from __future__ import annotations

from models.external.fraud.port import FraudAnalysis, FraudCase

REVIEW_APPROVED_CPF = "10000000876"
REVIEW_REPROVED_CPF = "10000000957"


class SandboxFraudAnalysis(FraudAnalysis):
    def needs_attention(self, case: FraudCase) -> bool:
        return case.cpf in (REVIEW_APPROVED_CPF, REVIEW_REPROVED_CPF)

    def decide(self, case: FraudCase) -> tuple[bool, str]:
        if case.cpf == REVIEW_REPROVED_CPF:
            return False, "sandbox: identity inconsistencies"
        return True, "sandbox: approved"

"""Fraud analysis over HTTP: POST /screenings and POST /decisions."""

from __future__ import annotations

from models.external.fraud.port import FraudAnalysis, FraudCase
from models.external.http_base import ExternalError, client_with_timeout

DECISIONS = ("APPROVED", "REPROVED")


def _body(case: FraudCase) -> dict:
    return {
        "reference": case.contract_id,
        "cpf": case.cpf,
        "name": case.full_name,
        "amount": str(case.amount),
        "origin": case.origin,
    }


class HttpFraudAnalysis(FraudAnalysis):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = client_with_timeout(base_url, timeout, "fraud")

    # Fail closed: an answer without the expected field is an error (the actor retries, then ops
    # see it), never read as "no attention required" or as an approval.
    def needs_attention(self, case: FraudCase) -> bool:
        answer = self.client.request("POST", "/screenings", json=_body(case))
        flag = answer.get("attention_required") if isinstance(answer, dict) else None
        if not isinstance(flag, bool):
            raise ExternalError("fraud: screening answer without a boolean attention_required")
        return flag

    def decide(self, case: FraudCase) -> tuple[bool, str]:
        answer = self.client.request(
            "POST", "/decisions", json=_body(case), headers={"Idempotency-Key": case.contract_id}
        )
        decision = answer.get("decision") if isinstance(answer, dict) else None
        if decision not in DECISIONS:
            raise ExternalError(f"fraud: decision answer must be one of {', '.join(DECISIONS)}")
        return decision == "APPROVED", str(answer.get("reason") or "")

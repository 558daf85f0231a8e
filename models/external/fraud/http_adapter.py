"""Fraud analysis over HTTP: POST /screenings and POST /decisions."""
from __future__ import annotations

from models.external.fraud.port import FraudAnalysis, FraudCase
from models.external.http_base import client_with_timeout


def _body(case: FraudCase) -> dict:
    return {"reference": case.contract_id, "cpf": case.cpf, "name": case.full_name, "amount": str(case.amount),
            "origin": case.origin}


class HttpFraudAnalysis(FraudAnalysis):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = client_with_timeout(base_url, timeout, "fraud")

    def needs_attention(self, case: FraudCase) -> bool:
        return bool(self.client.request("POST", "/screenings", json=_body(case)).get("attention_required"))

    def decide(self, case: FraudCase) -> tuple[bool, str]:
        answer = self.client.request("POST", "/decisions", json=_body(case),
                                     headers={"Idempotency-Key": case.contract_id})
        return answer.get("decision") == "APPROVED", str(answer.get("reason") or "")

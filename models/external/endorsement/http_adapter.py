"""Payroll endorsement over HTTP: POST /endorsements (idempotent by contract id)."""

from __future__ import annotations

from models.external.endorsement.port import Endorsement, EndorsementRequest
from models.external.http_base import client_with_timeout


class HttpEndorsement(Endorsement):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = client_with_timeout(base_url, timeout, "endorsement")

    def register(self, request: EndorsementRequest) -> str:
        answer = self.client.request(
            "POST",
            "/endorsements",
            headers={"Idempotency-Key": request.contract_id},
            json={
                "reference": request.contract_id,
                "cpf": request.cpf,
                "installment_amount": str(request.installment_amount),
                "installments": request.installments,
                "first_due_date": request.first_due_date.isoformat(),
            },
        )
        return str(answer["endorsement_id"])

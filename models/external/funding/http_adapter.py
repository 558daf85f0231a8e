"""Funding partner over HTTP (applications and payments; Idempotency-Key on every write)."""

from __future__ import annotations

from decimal import Decimal

from models.external.funding.port import Funding, FundingApplication, Payment
from models.external.http_base import client_with_timeout


class HttpFunding(Funding):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = client_with_timeout(base_url, timeout, "funding")

    def create_application(self, *, reference, cpf, full_name, amount, installments, installment_amount):
        answer = self.client.request(
            "POST",
            "/applications",
            headers={"Idempotency-Key": reference},
            json={
                "reference": reference,
                "borrower": {"cpf": cpf, "name": full_name},
                "amount": str(amount),
                "installments": installments,
                "installment_amount": str(installment_amount),
            },
        )
        return FundingApplication(answer["application_id"], answer["ccb_number"])

    def cancel_application(self, application_id: str) -> None:
        self.client.request("POST", f"/applications/{application_id}/cancel")

    def pay(self, *, application_id, amount, destination, idempotency_key) -> Payment:
        from datetime import datetime

        answer = self.client.request(
            "POST",
            f"/applications/{application_id}/payments",
            headers={"Idempotency-Key": idempotency_key},
            json={"amount": str(amount), "destination": destination},
        )
        paid_at = datetime.fromisoformat(answer["paid_at"].replace("Z", "+00:00")) if answer.get("paid_at") else None
        return Payment(
            answer["status"], Decimal(str(answer.get("amount", amount))), paid_at, answer.get("failure_reason")
        )

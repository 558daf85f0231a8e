"""Funding partner over HTTP (applications and payments; Idempotency-Key on every write)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from models.external.funding.port import Funding, FundingApplication, Payment
from models.external.http_base import ExternalError, client_with_timeout


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
        answer = self.client.request(
            "POST",
            f"/applications/{application_id}/payments",
            headers={"Idempotency-Key": idempotency_key},
            json={"amount": str(amount), "destination": destination},
        )
        return _payment(answer, amount)

    def find_payment(self, *, idempotency_key: str) -> Payment | None:
        """GET /payments/{idempotency_key}: the payment as the funder recorded it; 404 is None."""
        try:
            answer = self.client.request("GET", f"/payments/{idempotency_key}")
        except ExternalError as error:
            if error.status_code == 404:
                return None
            raise
        return _payment(answer, None)


def _payment(answer: dict, requested: Decimal | None) -> Payment:
    paid_at = datetime.fromisoformat(answer["paid_at"].replace("Z", "+00:00")) if answer.get("paid_at") else None
    amount = answer["amount"] if requested is None else answer.get("amount", requested)
    return Payment(answer["status"], Decimal(str(amount)), paid_at, answer.get("failure_reason"))

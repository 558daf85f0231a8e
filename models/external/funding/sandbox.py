"""Sandbox funding partner, persisted in its own tables so it survives our restarts.

CPF ``10000001090`` makes every payment fail (DISBURSEMENT_FAILED). A payment is keyed by its
idempotency key: asking again returns the first result and moves no money.
"""

from __future__ import annotations

import uuid

import peewee

from models.db.database import db
from models.db.sandbox_providers import SandboxFundingApplication, SandboxPayment
from models.domain.clock import now
from models.external.funding.port import Funding, FundingApplication, Payment
from models.external.http_base import ExternalError

FAILING_CPF = "10000001090"


class SandboxFunding(Funding):
    def create_application(self, *, reference, cpf, full_name, amount, installments, installment_amount):
        ccb = "CCB" + str(uuid.uuid5(uuid.NAMESPACE_URL, reference).int)[:12]
        try:
            with db.atomic():
                row = SandboxFundingApplication.create(reference=reference, ccb_number=ccb, cpf=cpf, amount=amount)
        except peewee.IntegrityError:
            row = SandboxFundingApplication.get(SandboxFundingApplication.reference == reference)
        return FundingApplication(row.id, row.ccb_number)

    def cancel_application(self, application_id: str) -> None:
        row = SandboxFundingApplication.get_or_none(SandboxFundingApplication.id == application_id)
        if row is None:
            raise ExternalError(f"application {application_id} not found", status_code=404)
        if row.status == "PAID":
            raise ExternalError(f"application {application_id} is already paid", status_code=409)
        row.status, row.canceled_at = "CANCELED", now()
        row.save()

    def pay(self, *, application_id, amount, destination, idempotency_key) -> Payment:
        existing = SandboxPayment.get_or_none(SandboxPayment.idempotency_key == idempotency_key)
        if existing is None:
            application = SandboxFundingApplication.get_by_id(application_id)
            failed = application.cpf == FAILING_CPF or application.status == "CANCELED"
            try:
                with db.atomic():
                    existing = SandboxPayment.create(
                        idempotency_key=idempotency_key,
                        application_id=application_id,
                        amount=amount,
                        destination=destination,
                        status="FAILED" if failed else "PAID",
                        failure_reason="Beneficiary account refused the transfer" if failed else None,
                        paid_at=None if failed else now(),
                    )
                    if not failed:
                        application.status = "PAID"
                        application.save()
            except peewee.IntegrityError:  # a concurrent duplicate won: report its result
                existing = SandboxPayment.get(SandboxPayment.idempotency_key == idempotency_key)
        return Payment(existing.status, existing.amount, existing.paid_at, existing.failure_reason)

    def find_payment(self, *, idempotency_key: str) -> Payment | None:
        existing = SandboxPayment.get_or_none(SandboxPayment.idempotency_key == idempotency_key)
        if existing is None:
            return None
        return Payment(existing.status, existing.amount, existing.paid_at, existing.failure_reason)

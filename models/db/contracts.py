"""Contracts (CCB), their signature process, and the disbursement that pays them."""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, MoneyField, UtcDateTimeField
from models.db.proposals import Proposal, new_id
from models.domain.clock import now


class Contract(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    proposal = peewee.ForeignKeyField(Proposal, backref="contracts", on_delete="CASCADE")
    offer_id = peewee.CharField(max_length=36)
    origin = peewee.CharField(max_length=64, index=True)
    cpf = peewee.CharField(max_length=11, index=True)
    status = peewee.CharField(max_length=32, default="CONTRACT_GENERATION_IN_PROGRESS")
    principal_amount = MoneyField()
    total_amount = MoneyField()
    installment_amount = MoneyField()
    installments = peewee.IntegerField()
    interest_rate = peewee.DecimalField(max_digits=8, decimal_places=4)
    first_due_date = peewee.DateField()
    final_due_date = peewee.DateField()
    disbursement_date = peewee.DateField(null=True)
    terms = JsonField(null=True)  # schedule, CET, breakdown, disbursement data as printed
    pdf_path = peewee.CharField(max_length=500, null=True)
    has_original_document = peewee.BooleanField(default=False)
    # The CCB's versions: SHA-256 of the stored unsigned original (recorded when it is stored), and
    # the signed version (the same document plus the signature evidence page), written once when
    # the signature is applied, with the evidence it prints (provider, process id, the four
    # results, signed_at, the original's SHA-256). Nullable: added at start-up to older databases.
    original_sha256 = peewee.CharField(max_length=64, null=True)
    signed_pdf_path = peewee.CharField(max_length=500, null=True)
    signature_evidence = JsonField(null=True)
    signature_redirect_url = peewee.CharField(max_length=500, null=True)
    # Signature process at the e-signature provider.
    signature_id = peewee.CharField(max_length=36, null=True)
    unico_process_id = peewee.CharField(max_length=64, null=True, unique=True)
    user_redirect_url = peewee.CharField(max_length=500, null=True)
    signature_status = peewee.CharField(max_length=16, null=True)
    signature_expires_at = UtcDateTimeField(null=True)
    signature_result = JsonField(null=True)
    signed_at = UtcDateTimeField(null=True)
    # Funding partner and payment.
    issuer_application_id = peewee.CharField(max_length=64, null=True)
    disbursement_amount = MoneyField(null=True)
    disbursement_paid_at = UtcDateTimeField(null=True)
    issue_date = UtcDateTimeField(null=True)
    # Contract path additions: payroll endorsement id, and the outcome of trying to cancel the
    # funding application after a cancel, expiry or fraud reproval (best effort, never blocking).
    funding_application_id = peewee.CharField(max_length=64, null=True)  # the funder's id of the application
    # The post-signature routing, decided once (the fraud provider is asked once): FRAUD_REVIEW or
    # ENDORSEMENT. A redelivered message follows it instead of asking again.
    post_signature_route = peewee.CharField(max_length=16, null=True)
    endorsement_id = peewee.CharField(max_length=64, null=True)
    endorsed_at = UtcDateTimeField(null=True)
    funding_canceled_at = UtcDateTimeField(null=True)
    funding_cancel_error = peewee.TextField(null=True)
    created_at = UtcDateTimeField(default=now)
    updated_at = UtcDateTimeField(default=now)


class Disbursement(BaseModel):
    """One row per contract: the idempotency anchor that makes money move at most once."""

    contract = peewee.ForeignKeyField(Contract, backref="disbursements", unique=True, on_delete="CASCADE")
    idempotency_key = peewee.CharField(max_length=64, unique=True)
    funding_application_id = peewee.CharField(max_length=64, null=True)
    status = peewee.CharField(max_length=16, default="PENDING")  # PENDING | REQUESTED | PAID | FAILED
    amount = MoneyField(null=True)
    scheduled_for = peewee.DateField(null=True)
    attempts = peewee.IntegerField(default=0)
    last_error = peewee.TextField(null=True)
    paid_at = UtcDateTimeField(null=True)
    created_at = UtcDateTimeField(default=now)
    updated_at = UtcDateTimeField(default=now)

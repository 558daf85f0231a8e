"""Credit analyses (with the approval snapshot) and the offers they or simulations produced."""

import peewee

from models.db.database import BaseModel
from models.db.fields import JsonField, MoneyField, UtcDateTimeField
from models.db.proposals import Proposal, new_id
from models.domain.clock import now


class CreditAnalysis(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    proposal = peewee.ForeignKeyField(Proposal, backref="analyses", on_delete="CASCADE")
    cpf = peewee.CharField(max_length=11, index=True)
    origin = peewee.CharField(max_length=64)
    # IN_PROGRESS | APPROVED | REJECTED | FAILED | AWAITING_RETRY
    outcome = peewee.CharField(max_length=16, default="IN_PROGRESS")
    attempt = peewee.IntegerField(default=1)
    kind = peewee.CharField(max_length=16, default="initial")  # initial | reanalysis | retry | auto_retry | promotional
    mode = peewee.CharField(max_length=8, default="hybrid")  # hybrid | async | sync
    promotional = peewee.BooleanField(default=False)
    available_margin = MoneyField(null=True)
    max_loan_amount = MoneyField(null=True)
    max_installments = peewee.IntegerField(null=True)
    max_monthly_payment = MoneyField(null=True)
    min_monthly_payment = MoneyField(null=True)
    monthly_rate = peewee.DecimalField(max_digits=10, decimal_places=6, null=True)
    pod_limit_max = MoneyField(null=True)
    promotional_pod_limit_max = MoneyField(null=True)
    rejection_reason = peewee.CharField(max_length=64, null=True)
    error_code = peewee.CharField(max_length=32, null=True)
    retryable = peewee.BooleanField(default=False)
    margin_snapshot = JsonField(null=True)
    engine_result = JsonField(null=True)
    started_at = UtcDateTimeField(default=now)
    finished_at = UtcDateTimeField(null=True)
    approved_at = UtcDateTimeField(null=True, index=True)
    # Credit path (issue #4): the consent this analysis ran under (retries reuse it) and, for
    # PAYROLL_SYSTEM_FAILED_AWAITING_RETRY, when the automatic retry is due.
    consent_id = peewee.IntegerField(null=True)
    retry_at = UtcDateTimeField(null=True)
    # The automatic payroll retries this analysis has had, and its first payroll failure: both
    # bound the retries (credit.payroll_auto_retry_limit, credit.retry_window_hours).
    auto_retries = peewee.IntegerField(default=0)
    first_payroll_failure_at = UtcDateTimeField(null=True)


class Offer(BaseModel):
    id = peewee.CharField(max_length=36, primary_key=True, default=new_id)
    proposal = peewee.ForeignKeyField(Proposal, backref="offers", on_delete="CASCADE")
    analysis = peewee.ForeignKeyField(CreditAnalysis, null=True, backref="offers", on_delete="SET NULL")
    source = peewee.CharField(max_length=16)  # analysis | simulation
    kind = peewee.CharField(max_length=16, default="standard")  # standard | insured
    principal_amount = MoneyField()
    installments = peewee.IntegerField()
    installment_amount = MoneyField()
    interest_rate = peewee.DecimalField(max_digits=8, decimal_places=4)
    # Superseded offers stay for the audit trail but can no longer be selected.
    superseded_at = UtcDateTimeField(null=True)
    expires_at = UtcDateTimeField()
    payload = JsonField()  # the full Offer document as served
    created_at = UtcDateTimeField(default=now)

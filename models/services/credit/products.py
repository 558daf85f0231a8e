"""Product configuration: ids and names per insurance variant, and the pricing of offers."""

from __future__ import annotations

from decimal import Decimal

from models.db.partners import Partner
from models.domain.loan.pricing import Pricing
from models.settings import current


def product_id_for(partner: Partner) -> str:
    """The product a partner's proposals belong to: the insured variant when insurance is on."""
    products = current().products
    return products.insured_id if partner.insurance_enabled else products.standard_id


def product_ref(insured: bool) -> dict:
    """``{id, name}`` of the standard or the insured product (spec: product / insuredProduct)."""
    products = current().products
    if insured:
        return {"id": products.insured_id, "name": products.insured_name}
    return {"id": products.standard_id, "name": products.standard_name}


def pricing() -> Pricing:
    """Domain Pricing from ``[default.credit.pricing]``."""
    p = current().credit.pricing
    return Pricing(
        monthly_rate=Decimal(p.monthly_rate),
        tac=Decimal(p.tac),
        insurance_rate=Decimal(p.insurance_rate),
        min_amount=Decimal(p.min_amount),
        max_amount=Decimal(p.max_amount),
        min_installment_amount=Decimal(p.min_installment_amount),
        max_installments=int(p.max_installments),
        min_installments=int(p.min_installments),
        offer_validity_days=int(p.offer_validity_days),
        payroll_cutoff_day=int(p.payroll_cutoff_day),
        due_day=int(p.due_day),
    )

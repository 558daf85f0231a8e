"""Product configuration: ids and names per insurance variant, and the pricing of offers.

Read from the ``[default.products]`` and ``[default.credit.pricing]`` settings sections, which the
callers pass (``products_settings=``, ``pricing(settings.credit.pricing)``).
"""

from __future__ import annotations

from models.db.partners import Partner
from models.domain.loan.pricing import Pricing
from models.settings import PricingSettings, ProductsSettings


def product_id_for(partner: Partner, *, products_settings: ProductsSettings) -> str:
    """The product a partner's proposals belong to: the insured variant when insurance is on."""
    return products_settings.insured_id if partner.insurance_enabled else products_settings.standard_id


def product_ref(insured: bool, *, products_settings: ProductsSettings) -> dict:
    """``{id, name}`` of the standard or the insured product (spec: product / insuredProduct)."""
    if insured:
        return {"id": products_settings.insured_id, "name": products_settings.insured_name}
    return {"id": products_settings.standard_id, "name": products_settings.standard_name}


def pricing(pricing_settings: PricingSettings) -> Pricing:
    """Domain Pricing from ``[default.credit.pricing]``."""
    p = pricing_settings
    return Pricing(
        monthly_rate=p.monthly_rate,
        tac=p.tac,
        insurance_rate=p.insurance_rate,
        min_amount=p.min_amount,
        max_amount=p.max_amount,
        min_installment_amount=p.min_installment_amount,
        max_installments=p.max_installments,
        min_installments=p.min_installments,
        offer_validity_days=p.offer_validity_days,
        payroll_cutoff_day=p.payroll_cutoff_day,
        due_day=p.due_day,
    )

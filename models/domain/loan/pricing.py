"""Inputs of offer building: the operator's pricing and the credit-analysis result."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from models.domain.credit_limit import granted_limit
from models.domain.loan.iof import IofRates

# Terms offered when simulating by amount (spec: "term options").
STANDARD_TERMS = (12, 24, 36, 48, 60, 72, 84, 96)
PROGRAM_MAX_INSTALLMENTS = 96  # Lei 15.179/2025


@dataclass(frozen=True)
class Pricing:
    """Operator configuration for one product; amounts in reais, rates as fractions."""

    monthly_rate: Decimal
    tac: Decimal
    insurance_rate: Decimal  # premium as a fraction of the financed amount (insured offer)
    min_amount: Decimal
    max_amount: Decimal
    min_installment_amount: Decimal
    max_installments: int = PROGRAM_MAX_INSTALLMENTS
    min_installments: int = 6
    offer_validity_days: int = 7
    iof_rates: tuple[IofRates, ...] = (IofRates(),)
    payroll_cutoff_day: int = 20
    due_day: int = 5
    late_payment_fee_percent: Decimal = Decimal("2.00")  # CDC art. 52 §1 cap
    default_interest_monthly_percent: Decimal = Decimal("1.00")


@dataclass(frozen=True)
class AnalysisResult:
    """What the credit analysis approved: margin, term cap, rate and amount caps."""

    available_margin: Decimal
    max_installments: int
    monthly_rate: Decimal | None
    pod_limit_max: Decimal | None
    promotional_pod_limit_max: Decimal | None = None
    promotional: bool = False
    insurance_enabled: bool = False


def rate_for(result: AnalysisResult, pricing: Pricing) -> Decimal:
    """The engine's risk-based rate wins; the product rate is the fallback."""
    return Decimal(result.monthly_rate if result.monthly_rate is not None else pricing.monthly_rate)


def max_term(result: AnalysisResult, pricing: Pricing) -> int:
    """Longest term allowed by the analysis, the product and the program."""
    return min(result.max_installments, pricing.max_installments, PROGRAM_MAX_INSTALLMENTS)


def amount_cap(result: AnalysisResult, pricing: Pricing) -> Decimal:
    """Largest net amount: product maximum and the analysis's granted limit (promotional when granted)."""
    limit = granted_limit(result.pod_limit_max, result.promotional_pod_limit_max, result.promotional)
    caps = [Decimal(pricing.max_amount)] + ([limit] if limit is not None else [])
    return min(caps)

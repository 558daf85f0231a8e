"""Offer building: the largest loan whose installment fits the payroll margin.

Decisions: the insured offer has ``offer_type`` "INSURED" and ``kind``
"insured" (the spec only shows "STANDARD"); its premium is financed like IOF
and TAC. Amount caps (product maximum, ``pod_limit_max``) apply to the net
amount credited, the figure the customer and the available-loan-amount route
talk about. Disbursement is estimated on the next business day after
``now``; the first due date follows the payroll cycle in ``calendar``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from uuid import uuid4

from models.domain import calendar
from models.domain.clock import isoformat_z
from models.domain.clock import now as clock_now
from models.domain.errors import BusinessRuleViolation
from models.domain.loan.cet import cet
from models.domain.loan.financing import FinancedAmounts, finance, gross_up
from models.domain.loan.iof import IofRates, rates_in_force
from models.domain.loan.price import annual_rate, present_value, price_installment
from models.domain.loan.pricing import AnalysisResult, Pricing, amount_cap, max_term, rate_for
from models.domain.loan.quote_solver import TermMath, term_math
from models.domain.money import CENT, ZERO, floor_cents, percent, to_cents
from models.domain.offer_availability import OfferStatus, offer_expiry

_MAX_TRIMS = 500
HALF_CENT = Decimal("0.005")


@dataclass(frozen=True)
class QuoteContext:
    """Everything a quote needs besides the amount and term."""

    rate: Decimal
    margin: Decimal
    disbursement_date: date
    first_due_date: date
    pricing: Pricing
    insured: bool

    def gross_up(self, net: Decimal, n: int) -> FinancedAmounts:
        """Financed amounts for a net amount over ``n`` months."""
        return gross_up(net, self.rate, n, *self._charges())

    def finance(self, financed: Decimal, n: int) -> FinancedAmounts:
        """Charges and net amount of a financed principal over ``n`` months."""
        return finance(financed, self.rate, n, *self._charges())

    def term_math(self, n: int) -> TermMath:
        """Exact net amounts and largest installments over ``n`` months, for the searches."""
        return term_math(self.rate, n, *self._charges())

    def _charges(self) -> tuple[date, date, IofRates, Decimal, Decimal]:
        """The arguments after the rate and term that the loan math functions share, in their
        order: the dates the IOF and the schedule run between, the IOF rates, TAC and premium rate."""
        return (
            self.disbursement_date,
            self.first_due_date,
            rates_in_force(self.pricing.iof_rates, self.disbursement_date),
            self.pricing.tac,
            self.insurance_rate,
        )

    @property
    def insurance_rate(self) -> Decimal:
        return Decimal(self.pricing.insurance_rate) if self.insured else ZERO


def quote_context(result: AnalysisResult, pricing: Pricing, now: datetime, insured: bool) -> QuoteContext:
    """Build the quoting context; insurance only counts when the analysis enables it."""
    return QuoteContext(
        rate=rate_for(result, pricing),
        margin=to_cents(result.available_margin),
        disbursement_date=calendar.disbursement_date(now),
        first_due_date=calendar.first_due_date(now, pricing.payroll_cutoff_day, pricing.due_day),
        pricing=pricing,
        insured=insured and result.insurance_enabled,
    )


def margin_shortfall(ctx: QuoteContext, n: int) -> BusinessRuleViolation:
    """422 telling the margin and the installment the smallest loan would need."""
    required = max(price_installment(ctx.pricing.min_amount, ctx.rate, n), to_cents(ctx.pricing.min_installment_amount))
    return BusinessRuleViolation(
        "Available margin is not enough for the minimum loan.",
        error_code="INSUFFICIENT_MARGIN",
        details={"availableMargin": ctx.margin, "minimumRequired": required},
    )


def largest_quote(ctx: QuoteContext, result: AnalysisResult, n: int) -> FinancedAmounts | None:
    """Largest net amount over ``n`` months whose every installment fits the margin.

    The search runs on principals and net amounts (``TermMath`` gives their exact
    largest installment and net amount); only the principal found is financed
    in full. Results are kept for a while: the analysis asks for the standard
    quote twice (offers, then limits), and quotes are immutable.
    """
    return _largest_quote(ctx, result, n)


@lru_cache(maxsize=64)
def _largest_quote(ctx: QuoteContext, result: AnalysisResult, n: int) -> FinancedAmounts | None:
    if ctx.margin < to_cents(ctx.pricing.min_installment_amount):
        return None
    math = ctx.term_math(n)

    def fits(financed: Decimal, net: Decimal) -> bool:
        return math.max_installment(financed) <= ctx.margin or net <= 0

    # Any PMT below margin + half a cent rounds to the margin, so start just above.
    financed = to_cents(floor_cents(present_value(ctx.margin + HALF_CENT, ctx.rate, n)))
    financed = _trim(lambda f: fits(f, math.net_amount(f)), financed, lambda f: f - CENT)
    cap = floor_cents(amount_cap(result, ctx.pricing))
    net = to_cents(min(math.net_amount(financed), cap))
    net = _trim(lambda amount: fits(math.solve_financed(amount), amount), net, lambda amount: amount - CENT)
    financed = math.solve_financed(net)
    for _ in range(_MAX_TRIMS):  # rounding is not monotonic: climb while a cent more still fits
        if net >= cap:
            break
        bigger = math.solve_financed(net + CENT)
        if math.max_installment(bigger) > ctx.margin:
            break
        net, financed = net + CENT, bigger
    quote = ctx.finance(financed, n)
    return quote if quote.net_amount >= to_cents(ctx.pricing.min_amount) else None


def _trim(fits: Callable[[Decimal], bool], start: Decimal, smaller: Callable[[Decimal], Decimal]) -> Decimal:
    # The last row carries compounded rounding cents, so trim until every row fits.
    for _ in range(_MAX_TRIMS):
        if fits(start):
            return start
        start = smaller(start)
    return start  # pragma: no cover


def offer_dict(
    quote: FinancedAmounts,
    ctx: QuoteContext,
    *,
    proposal_id: str,
    now: datetime,
    id_factory: Callable = uuid4,
    priority: int = 1,
    promotional: bool = False,
) -> dict:
    """Offer with every field of the spec's Offer table, amounts as Decimal."""
    n = len(quote.schedule)
    label = ("Insured" if ctx.insured else "Standard") + (" promotional" if promotional else "")
    cost = cet(
        quote.net_amount,
        [(row.due_date, row.installment) for row in quote.schedule],
        ctx.disbursement_date,
        components={
            "principal": quote.net_amount,
            "interest": quote.interest_amount,
            "iof": quote.iof_amount,
            "tac": quote.tac_amount,
            "insurance": quote.insurance_amount,
        },
    )
    stamp = isoformat_z(now)
    return {
        "id": str(id_factory()),
        "proposal_id": proposal_id,
        "offer_type": "INSURED" if ctx.insured else "STANDARD",
        "kind": "insured" if ctx.insured else "standard",
        "status": OfferStatus.ACTIVE,
        "description": f"{label} payroll loan: R$ {quote.net_amount} in {n}x of R$ {quote.installment_amount}",
        "principal_amount": quote.net_amount,
        "interest_rate": percent(ctx.rate),
        "annual_interest_rate": percent(annual_rate(ctx.rate)),
        "installments": n,
        "installment_amount": quote.installment_amount,
        "total_amount": quote.total_amount,
        "iof_amount": quote.iof_amount,
        "tac_amount": quote.tac_amount,
        "insurance_amount": quote.insurance_amount,
        "first_due_date": quote.schedule[0].due_date.isoformat(),
        "final_due_date": quote.schedule[-1].due_date.isoformat(),
        "expires_at": isoformat_z(offer_expiry(now, ctx.pricing.offer_validity_days)),
        "calculation_details": {
            "monthly_rate": ctx.rate,
            "financed_amount": quote.financed_amount,
            "disbursement_amount": quote.net_amount,
            "total_processing_cost": quote.iof_amount + quote.tac_amount,
            "calculation_method": "PRICE",
            "generated_at": stamp,
        },
        "terms_and_conditions": {
            "contract_type": "CCB",
            "guarantee_type": "PAYROLL_DEDUCTION",
            "early_payment_discount": True,
            "late_payment_fee": Decimal(ctx.pricing.late_payment_fee_percent),
            "default_interest": Decimal(ctx.pricing.default_interest_monthly_percent),
        },
        "priority": priority,
        "is_available": True,
        "created_at": stamp,
        "updated_at": stamp,
        "cet": {"annual": cost.annual, "monthly": cost.monthly},
        "cost_breakdown": cost.breakdown,
    }


def build_offers(
    result: AnalysisResult,
    pricing: Pricing,
    proposal_id: str,
    now: datetime,
    id_factory: Callable = uuid4,
) -> list[dict]:
    """Standard offer at the longest allowed term, plus the insured one when enabled."""
    n = max_term(result, pricing)
    kinds = [False] + ([True] if result.insurance_enabled and pricing.insurance_rate > 0 else [])
    offers = []
    for priority, insured in enumerate(kinds, start=1):
        ctx = quote_context(result, pricing, now, insured)
        quote = largest_quote(ctx, result, n) if n >= pricing.min_installments else None
        if quote is None:
            if insured:
                continue  # the premium may not fit; the standard offer still stands
            raise margin_shortfall(ctx, max(n, 1))
        offers.append(
            offer_dict(
                quote,
                ctx,
                proposal_id=proposal_id,
                now=now,
                id_factory=id_factory,
                priority=priority,
                promotional=result.promotional,
            )
        )
    return offers


def credit_limits(result: AnalysisResult, pricing: Pricing, now: datetime | None = None) -> dict:
    """maxLoanAmount (net, standard offer), maxInstallments, maxMonthlyPayment, minMonthlyPayment."""
    n = max_term(result, pricing)
    ctx = quote_context(result, pricing, now or clock_now(), insured=False)
    quote = largest_quote(ctx, result, n) if n >= pricing.min_installments else None
    return {
        "maxLoanAmount": quote.net_amount if quote else ZERO,
        "maxInstallments": n if quote else 0,
        "maxMonthlyPayment": ctx.margin,
        "minMonthlyPayment": to_cents(pricing.min_installment_amount),
    }

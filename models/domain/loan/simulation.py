"""POST simulate: by term (maximum amount) or by amount (term options)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal, InvalidOperation
from uuid import uuid4

from models.domain.clock import now as clock_now
from models.domain.errors import ValidationFailed
from models.domain.loan.offers import largest_quote, margin_shortfall, offer_dict, quote_context
from models.domain.loan.pricing import (
    PROGRAM_MAX_INSTALLMENTS,
    STANDARD_TERMS,
    AnalysisResult,
    Pricing,
    amount_cap,
    max_term,
)
from models.domain.money import to_cents


def _invalid(field: str, message: str, **extra: object) -> ValidationFailed:
    return ValidationFailed(message, error_code="INVALID_SIMULATION_PARAMETERS", details={"field": field, **extra})


def check_request(installments: object, loan_amount: object, pricing: Pricing) -> None:
    """Refuse, before anything is stored, what no analysis could make valid: a term outside the
    product's, an amount outside the product's or with more than two decimals (400
    INVALID_SIMULATION_PARAMETERS, ``details.field``, ``min`` and ``max``). The analysis's own caps
    (its term and its granted amount) are checked when the simulation runs."""
    if installments is not None:
        shortest, longest = pricing.min_installments, min(pricing.max_installments, PROGRAM_MAX_INSTALLMENTS)
        if (
            isinstance(installments, bool)
            or not isinstance(installments, int)
            or not shortest <= installments <= longest
        ):
            raise _invalid(
                "installments",
                f"installments must be an integer from {shortest} to {longest}.",
                min=shortest,
                max=longest,
            )
    if loan_amount is not None:
        amount = _parse_amount(loan_amount)
        smallest, largest = to_cents(pricing.min_amount), to_cents(pricing.max_amount)
        if not smallest <= amount <= largest:
            raise _invalid(
                "loan_amount", f"loan_amount must be from {smallest} to {largest}.", min=smallest, max=largest
            )


def simulate_by_installments(
    result: AnalysisResult,
    pricing: Pricing,
    installments: int,
    insured: bool = False,
    *,
    proposal_id: str = "",
    now: datetime | None = None,
    id_factory: Callable = uuid4,
) -> list[dict]:
    """One offer: the largest net amount financeable over ``installments`` months."""
    low, high = pricing.min_installments, max_term(result, pricing)
    if isinstance(installments, bool) or not isinstance(installments, int) or not low <= installments <= high:
        raise _invalid("installments", f"installments must be an integer from {low} to {high}.", min=low, max=high)
    now = now or clock_now()
    ctx = quote_context(result, pricing, now, insured)
    quote = largest_quote(ctx, result, installments)
    if quote is None:
        raise margin_shortfall(ctx, installments)
    return [
        offer_dict(quote, ctx, proposal_id=proposal_id, now=now, id_factory=id_factory, promotional=result.promotional)
    ]


def simulate_by_loan_amount(
    result: AnalysisResult,
    pricing: Pricing,
    loan_amount: object,
    insured: bool = False,
    *,
    proposal_id: str = "",
    now: datetime | None = None,
    id_factory: Callable = uuid4,
) -> list[dict]:
    """Offers for ``loan_amount`` (net) at each standard term whose installment fits the margin."""
    amount = _parse_amount(loan_amount)
    low, high = to_cents(pricing.min_amount), amount_cap(result, pricing)
    if not low <= amount <= high:
        raise _invalid("loan_amount", f"loan_amount must be from {low} to {high}.", min=low, max=high)
    now = now or clock_now()
    ctx = quote_context(result, pricing, now, insured)
    terms = [n for n in STANDARD_TERMS if pricing.min_installments <= n <= max_term(result, pricing)]
    offers = []
    for priority, n in enumerate(terms, start=1):
        math = ctx.term_math(n)  # check the term on exact figures; finance in full only the terms offered
        financed = math.solve_financed(amount)
        if math.max_installment(financed) <= ctx.margin and math.first_installment(financed) >= to_cents(
            pricing.min_installment_amount
        ):
            offers.append(
                offer_dict(
                    ctx.finance(financed, n),
                    ctx,
                    proposal_id=proposal_id,
                    now=now,
                    id_factory=id_factory,
                    priority=priority,
                    promotional=result.promotional,
                )
            )
    if not offers:
        raise margin_shortfall(ctx, terms[-1] if terms else max(pricing.min_installments, 1))
    return offers


def _parse_amount(value: object) -> Decimal:
    if isinstance(value, bool) or value is None:
        raise _invalid("loan_amount", "loan_amount must be a number.")
    try:
        amount = Decimal(str(value))
        # quantize raises InvalidOperation past the context's precision (an exponent in the millions)
        exact = amount.is_finite() and amount > 0 and amount == to_cents(amount)
    except InvalidOperation:
        raise _invalid("loan_amount", "loan_amount must be a number.") from None
    if not exact:
        raise _invalid("loan_amount", "loan_amount must be positive with at most two decimals.")
    return amount

"""Façade over the loan-math modules so callers can import one name space.

price (installment, schedule, annual rate), iof, financing (gross-up), cet,
pricing (inputs), offers and simulation live in their own small modules.
"""
from models.domain.cet import CetResult, cet, cost_breakdown
from models.domain.financing import FinancedAmounts, finance, gross_up
from models.domain.iof import IofRates, iof_amount, rates_in_force
from models.domain.offers import build_offers, credit_limits
from models.domain.price import Installment, amortization_schedule, annual_rate, present_value, price_installment
from models.domain.pricing import STANDARD_TERMS, AnalysisResult, Pricing
from models.domain.simulation import simulate_by_installments, simulate_by_loan_amount

__all__ = [
    "AnalysisResult", "CetResult", "FinancedAmounts", "Installment", "IofRates", "Pricing", "STANDARD_TERMS",
    "amortization_schedule", "annual_rate", "build_offers", "cet", "cost_breakdown", "credit_limits", "finance",
    "gross_up", "iof_amount", "present_value", "price_installment", "rates_in_force", "simulate_by_installments",
    "simulate_by_loan_amount",
]

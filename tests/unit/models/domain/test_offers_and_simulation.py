"""Offers and simulation: every spec field, margin never exceeded, maximality, limits."""

import itertools
import random
from datetime import date, datetime, timezone
from decimal import Decimal

import pytest
from freezegun import freeze_time

from models.domain.clock import now
from models.domain.errors import BusinessRuleViolation, ValidationFailed
from models.domain.loan.financing import gross_up
from models.domain.loan.iof import IofRates
from models.domain.loan.offers import build_offers, credit_limits
from models.domain.loan.pricing import STANDARD_TERMS, AnalysisResult, Pricing
from models.domain.loan.simulation import simulate_by_installments, simulate_by_loan_amount

D = Decimal
NOW = datetime(2026, 3, 10, 15, 0, tzinfo=timezone.utc)  # Tuesday, noon in São Paulo
SPEC_OFFER_FIELDS = {
    "id",
    "proposal_id",
    "offer_type",
    "status",
    "description",
    "principal_amount",
    "interest_rate",
    "annual_interest_rate",
    "installments",
    "installment_amount",
    "total_amount",
    "iof_amount",
    "tac_amount",
    "insurance_amount",
    "first_due_date",
    "final_due_date",
    "expires_at",
    "calculation_details",
    "terms_and_conditions",
    "priority",
    "is_available",
    "created_at",
    "updated_at",
}
PRICING = Pricing(
    monthly_rate=D("0.0199"),
    tac=D("50"),
    insurance_rate=D("0.03"),
    min_amount=D("300"),
    max_amount=D("50000"),
    min_installment_amount=D("30"),
)


def analysis(margin="450.00", **kwargs):
    defaults = dict(max_installments=96, monthly_rate=None, pod_limit_max=D("30000"), insurance_enabled=True)
    return AnalysisResult(available_margin=D(margin), **{**defaults, **kwargs})


def ids():
    counter = itertools.count(1)
    return lambda: f"00000000-0000-0000-0000-{next(counter):012d}"


def requote(offer, insured=False):
    return gross_up(
        offer["principal_amount"],
        offer["calculation_details"]["monthly_rate"],
        offer["installments"],
        date(2026, 3, 11),
        date.fromisoformat(offer["first_due_date"]),
        IofRates(),
        PRICING.tac,
        PRICING.insurance_rate if insured else D(0),
    )


def test_offer_has_every_spec_field_and_values():
    standard, insured = build_offers(analysis(), PRICING, "p-1", NOW, id_factory=ids())
    assert SPEC_OFFER_FIELDS | {"cet", "kind", "cost_breakdown"} == set(standard)
    assert (standard["id"], standard["proposal_id"], standard["offer_type"], standard["kind"]) == (
        "00000000-0000-0000-0000-000000000001",
        "p-1",
        "STANDARD",
        "standard",
    )
    assert (insured["offer_type"], insured["kind"], insured["priority"]) == ("INSURED", "insured", 2)
    assert standard["status"] == "ACTIVE" and standard["is_available"] is True
    assert standard["interest_rate"] == D("1.99") and standard["annual_interest_rate"] == D("26.68")
    assert standard["installments"] == 96 and standard["insurance_amount"] == D("0.00")
    assert (standard["first_due_date"], standard["final_due_date"]) == ("2026-04-05", "2034-03-05")
    assert standard["expires_at"] == "2026-03-17T15:00:00.000Z"
    assert standard["created_at"] == standard["updated_at"] == "2026-03-10T15:00:00.000Z"
    details = standard["calculation_details"]
    assert set(details) == {
        "monthly_rate",
        "financed_amount",
        "disbursement_amount",
        "total_processing_cost",
        "calculation_method",
        "generated_at",
    }
    assert details["monthly_rate"] == D("0.0199") and details["calculation_method"] == "PRICE"
    assert details["disbursement_amount"] == standard["principal_amount"]
    assert details["total_processing_cost"] == standard["iof_amount"] + standard["tac_amount"]
    assert details["financed_amount"] == standard["principal_amount"] + details["total_processing_cost"]
    assert set(standard["terms_and_conditions"]) == {
        "contract_type",
        "guarantee_type",
        "early_payment_discount",
        "late_payment_fee",
        "default_interest",
    }
    assert (
        set(standard["cet"]) == {"annual", "monthly"} and standard["cet"]["annual"] > standard["annual_interest_rate"]
    )
    assert insured["insurance_amount"] > 0 and insured["principal_amount"] < standard["principal_amount"]


def test_offer_amounts_are_consistent_with_an_independent_requote():
    for offer, insured in zip(build_offers(analysis(), PRICING, "p", NOW), (False, True), strict=False):
        quote = requote(offer, insured)
        assert quote.financed_amount == offer["calculation_details"]["financed_amount"]
        assert quote.total_amount == offer["total_amount"]
        assert quote.iof_amount == offer["iof_amount"]
        assert quote.net_amount == offer["principal_amount"]


@pytest.mark.parametrize("seed", range(40))
def test_installment_never_exceeds_margin_and_amount_is_maximal(seed):
    rng = random.Random(seed)
    result = analysis(
        margin=str(D(rng.randint(3000, 300000)) / 100),
        max_installments=rng.randint(6, 120),
        monthly_rate=D(rng.randint(99, 450)) / 10000,
        pod_limit_max=D(rng.randint(1000, 80000)),
    )
    try:
        offers = build_offers(result, PRICING, "p", NOW)
    except BusinessRuleViolation as error:
        assert error.http_status == 422 and set(error.details) == {"availableMargin", "minimumRequired"}
        return
    cap = min(PRICING.max_amount, result.pod_limit_max)
    for offer, insured in zip(offers, (False, True), strict=False):
        quote = requote(offer, insured)
        assert quote.net_amount == offer["principal_amount"] <= cap
        assert max(row.installment for row in quote.schedule) <= result.available_margin
        assert offer["installments"] == min(result.max_installments, 96)
        if offer["principal_amount"] < cap:  # one more cent would break the margin
            bigger = gross_up(
                offer["principal_amount"] + D("0.01"),
                offer["calculation_details"]["monthly_rate"],
                offer["installments"],
                date(2026, 3, 11),
                date.fromisoformat(offer["first_due_date"]),
                IofRates(),
                PRICING.tac,
                PRICING.insurance_rate if insured else D(0),
            )
            assert max(row.installment for row in bigger.schedule) > result.available_margin


def test_pod_limit_caps_and_promotional_limit_applies_only_when_promotional():
    capped = build_offers(analysis(margin="2000", pod_limit_max=D("10000")), PRICING, "p", NOW)[0]
    assert capped["principal_amount"] == D("10000.00")
    promo = analysis(margin="2000", pod_limit_max=D("10000"), promotional_pod_limit_max=D("12000"), promotional=True)
    assert build_offers(promo, PRICING, "p", NOW)[0]["principal_amount"] == D("12000.00")
    assert "promotional" in build_offers(promo, PRICING, "p", NOW)[0]["description"]
    not_promo = analysis(margin="2000", pod_limit_max=D("10000"), promotional_pod_limit_max=D("12000"))
    assert build_offers(not_promo, PRICING, "p", NOW)[0]["principal_amount"] == D("10000.00")


def test_no_insured_offer_when_insurance_disabled():
    offers = build_offers(analysis(insurance_enabled=False), PRICING, "p", NOW)
    assert [o["kind"] for o in offers] == ["standard"]


def test_margin_shortfall_is_422_with_details():
    with pytest.raises(BusinessRuleViolation) as caught:
        build_offers(analysis(margin="20.00"), PRICING, "p", NOW)
    assert caught.value.http_status == 422
    assert caught.value.details["availableMargin"] == D("20.00")
    assert caught.value.details["minimumRequired"] >= D("30.00")


@freeze_time("2026-02-20 23:59:59")  # 20:59:59 local: still this payroll cycle
def test_offer_dates_follow_clock_and_cycle():
    offer = build_offers(analysis(), PRICING, "p", now())[0]
    assert offer["first_due_date"] == "2026-03-05"
    assert offer["expires_at"] == "2026-02-27T23:59:59.000Z"


def test_credit_limits():
    limits = credit_limits(analysis(), PRICING, NOW)
    assert limits == {
        "maxLoanAmount": build_offers(analysis(), PRICING, "p", NOW)[0]["principal_amount"],
        "maxInstallments": 96,
        "maxMonthlyPayment": D("450.00"),
        "minMonthlyPayment": D("30.00"),
    }
    assert credit_limits(analysis(margin="10"), PRICING, NOW)["maxLoanAmount"] == D("0.00")


@pytest.mark.parametrize("installments", [12, 24, 60, 96])
def test_simulate_by_installments_gives_one_maximal_offer(installments):
    (offer,) = simulate_by_installments(analysis(), PRICING, installments, proposal_id="p", now=NOW)
    assert offer["installments"] == installments and offer["installment_amount"] <= D("450.00")
    assert offer["proposal_id"] == "p" and offer["kind"] == "standard"


@pytest.mark.parametrize("bad", [0, 5, 97, 120, "12", 12.0, True, None])
def test_simulate_by_installments_rejects_invalid(bad):
    with pytest.raises(ValidationFailed) as caught:
        simulate_by_installments(analysis(), PRICING, bad, now=NOW)
    assert caught.value.http_status == 400 and caught.value.details["field"] == "installments"


def test_simulate_by_installments_respects_analysis_term_cap():
    with pytest.raises(ValidationFailed):
        simulate_by_installments(analysis(max_installments=48), PRICING, 60, now=NOW)


def test_simulate_insured_only_when_enabled():
    (insured,) = simulate_by_installments(analysis(), PRICING, 24, True, now=NOW)
    (ignored,) = simulate_by_installments(analysis(insurance_enabled=False), PRICING, 24, True, now=NOW)
    assert insured["kind"] == "insured" and ignored["kind"] == "standard"


@pytest.mark.parametrize("amount", [D("300"), D("5000"), "7500.55", 12000, D("18000")])
def test_simulate_by_loan_amount_term_options_fit_margin(amount):
    offers = simulate_by_loan_amount(analysis(), PRICING, amount, proposal_id="p", now=NOW)
    assert offers and all(o["principal_amount"] == D(str(amount)) for o in offers)
    assert all(o["installments"] in STANDARD_TERMS for o in offers)
    for offer in offers:
        quote = requote(offer)
        assert max(r.installment for r in quote.schedule) <= D("450.00")
        assert offer["installment_amount"] >= D("30.00")


def test_simulate_by_loan_amount_drops_terms_over_margin():
    terms = [o["installments"] for o in simulate_by_loan_amount(analysis(), PRICING, D("5000"), now=NOW)]
    assert terms == [24, 36, 48, 60, 72, 84, 96]


@pytest.mark.parametrize("bad", [D("299.99"), D("30000.01"), D("0"), -5, "abc", None, True, "10.001", "NaN"])
def test_simulate_by_loan_amount_rejects_invalid(bad):
    with pytest.raises(ValidationFailed) as caught:
        simulate_by_loan_amount(analysis(), PRICING, bad, now=NOW)
    assert caught.value.details["field"] == "loan_amount"


def test_simulate_by_loan_amount_no_term_fits_is_422():
    with pytest.raises(BusinessRuleViolation) as caught:
        simulate_by_loan_amount(analysis(margin="100"), PRICING, D("25000"), now=NOW)
    assert caught.value.details["availableMargin"] == D("100.00")

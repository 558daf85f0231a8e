"""Seeded, varied inputs for the offer-math golden test, and a lossless JSON encoding of outputs.

The fixture ``golden_offer_math.json`` holds what the reference implementation
returned for every case (amounts, dates, ids, and the errors raised). Regenerate
it only on purpose, from a commit whose results are known good:
``python -m tests.unit.models.domain.golden_cases``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

from models.domain.errors import DomainError
from models.domain.loan.financing import finance, gross_up
from models.domain.loan.iof import IofRates
from models.domain.loan.offers import build_offers, credit_limits
from models.domain.loan.pricing import AnalysisResult, Pricing, amount_cap
from models.domain.loan.simulation import simulate_by_installments, simulate_by_loan_amount

FIXTURE = Path(__file__).with_name("golden_offer_math.json")
SEED = 20261121
D = Decimal
UTC = timezone.utc

# Instants around month/year ends, the payroll cut-off, weekends and bank holidays (local = UTC-3).
_EDGE_INSTANTS = [
    datetime(2025, 12, 31, 23, 30, tzinfo=UTC),
    datetime(2026, 1, 1, 2, 59, tzinfo=UTC),
    datetime(2026, 1, 1, 3, 0, tzinfo=UTC),
    datetime(2026, 2, 13, 18, 0, tzinfo=UTC),  # Friday before Carnival
    datetime(2026, 2, 16, 12, 0, tzinfo=UTC),
    datetime(2026, 2, 20, 23, 59, 59, tzinfo=UTC),
    datetime(2026, 2, 21, 3, 0, tzinfo=UTC),
    datetime(2026, 4, 2, 20, 0, tzinfo=UTC),  # before Good Friday
    datetime(2026, 6, 3, 15, 0, tzinfo=UTC),
    datetime(2026, 11, 19, 22, 0, tzinfo=UTC),  # Corpus Christi eve, Nov 20
    datetime(2026, 12, 24, 21, 0, tzinfo=UTC),
    datetime(2026, 12, 31, 12, 0, tzinfo=UTC),
    datetime(2027, 1, 31, 2, 0, tzinfo=UTC),
    datetime(2027, 2, 26, 16, 0, tzinfo=UTC),
    datetime(2028, 2, 28, 23, 0, tzinfo=UTC),
    datetime(2028, 2, 29, 12, 0, tzinfo=UTC),
]
_LATER_IOF = IofRates(flat=D("0.0038"), daily=D("0.0000559"), max_days=365, effective_from=date(2027, 1, 1))


def _instant(rng: random.Random) -> datetime:
    if rng.random() < 0.4:
        return rng.choice(_EDGE_INSTANTS)
    start = datetime(2025, 11, 1, tzinfo=UTC)
    return start + timedelta(seconds=rng.randrange(3 * 365 * 86400))


def _money(rng: random.Random, low: float, high: float) -> Decimal:
    """Log-uniform amount in reais, to the cent."""
    return D(round(low * (high / low) ** rng.random(), 2)).quantize(D("0.01"))


def _pricing(rng: random.Random) -> Pricing:
    return Pricing(
        monthly_rate=rng.choice([D("0.0199"), D("0.0149"), D("0.025"), D("0.01875")]),
        tac=rng.choice([D("0"), D("0.00"), D("50"), D("150.00")]),
        insurance_rate=rng.choice([D("0"), D("0.03"), D("0.035"), D("0.05")]),
        min_amount=rng.choice([D("300"), D("300.00"), D("500.00")]),
        max_amount=rng.choice([D("50000"), D("150000.00")]),
        min_installment_amount=rng.choice([D("30"), D("30.00"), D("50.00")]),
        max_installments=rng.choice([96, 96, 84, 120]),
        min_installments=rng.choice([6, 6, 12]),
        offer_validity_days=rng.choice([7, 7, 5]),
        iof_rates=rng.choice([(IofRates(),), (IofRates(),), (IofRates(), _LATER_IOF)]),
        payroll_cutoff_day=rng.choice([20, 20, 15, 31]),
        due_day=rng.choice([5, 5, 10, 31]),
    )


def _result(rng: random.Random) -> AnalysisResult:
    margin = rng.choice([D("29.99"), D("30.00"), D("30.01")]) if rng.random() < 0.05 else _money(rng, 30, 20000)
    pod = None if rng.random() < 0.15 else _money(rng, 300, 200000)
    promotional = rng.random() < 0.25
    return AnalysisResult(
        available_margin=margin,
        max_installments=rng.choice([rng.randint(1, 120), 96, 96, 84, 48, 24, 12, 6, 5]),
        monthly_rate=None if rng.random() < 0.3 else D(rng.randint(100, 600)) / 10000,
        pod_limit_max=pod,
        promotional_pod_limit_max=(_money(rng, 300, 200000) if rng.random() < 0.7 else None) if promotional else None,
        promotional=promotional,
        insurance_enabled=rng.random() < 0.6,
    )


def _loan_amount(rng: random.Random, result: AnalysisResult, pricing: Pricing):
    roll = rng.random()
    if roll > 0.3:  # mostly inside the allowed range, so offers get built
        return _money(rng, float(pricing.min_amount), float(min(amount_cap(result, pricing), D(60000))))
    if roll < 0.06:
        return rng.choice([None, True, "abc", "12.345", -5, 0, "NaN", "1e3", 100.5, "99999999.99"])
    if roll < 0.12:
        return rng.choice([str(_money(rng, 300, 5000)), int(_money(rng, 300, 5000))])
    return _money(rng, 250, 60000)


def cases(count: int = 260) -> list[dict]:
    """Every case: kind, the inputs, and a deterministic id prefix."""
    rng = random.Random(SEED)
    out = []
    for index in range(count):
        result, pricing, now = _result(rng), _pricing(rng), _instant(rng)
        out.append({"kind": "offers", "result": result, "pricing": pricing, "now": now})
        if index % 2 == 0:
            high = min(result.max_installments, pricing.max_installments, 96)
            out.append(
                {
                    "kind": "by_installments",
                    "result": result,
                    "pricing": pricing,
                    "now": now,
                    "installments": rng.randint(
                        min(pricing.min_installments, high) - 1, max(high, pricing.min_installments) + 1
                    ),
                    "insured": rng.random() < 0.5,
                }
            )
        if index % 3 != 1:
            out.append(
                {
                    "kind": "by_amount",
                    "result": result,
                    "pricing": pricing,
                    "now": now,
                    "loan_amount": _loan_amount(rng, result, pricing),
                    "insured": rng.random() < 0.5,
                }
            )
        if index % 4 == 0:
            n = rng.choice([6, 12, 36, 84, 96])
            out.append(
                {
                    "kind": "gross_up",
                    "net": _money(rng, 300, 60000),
                    "rate": D(rng.randint(100, 600)) / 10000,
                    "n": n,
                    "now": now,
                    "tac": pricing.tac,
                    "insurance_rate": pricing.insurance_rate,
                }
            )
    return out


def _ids(case_index: int):
    counter = itertools.count(1)
    return lambda: f"{case_index:08d}-0000-0000-0000-{next(counter):012d}"


def run(case: dict, case_index: int):
    """Call the implementation for one case; errors become data."""
    try:
        return _call(case, case_index)
    except DomainError as error:
        return {
            "error": type(error).__name__,
            "message": error.message,
            "error_code": error.error_code,
            "details": error.details,
            "http_status": error.http_status,
        }


def _call(case: dict, case_index: int):
    kind, now = case["kind"], case["now"]
    if kind == "gross_up":
        disbursed, first_due = now.date() + timedelta(days=1), date(now.year, now.month, 1) + timedelta(days=40)
        args = (case["rate"], case["n"], disbursed, first_due, IofRates(), case["tac"], case["insurance_rate"])
        quote = gross_up(case["net"], *args)
        return {"gross_up": _compact(quote), "finance": _compact(finance(quote.financed_amount + D("0.37"), *args))}
    result, pricing = case["result"], case["pricing"]
    if kind == "offers":
        offers = build_offers(result, pricing, f"p-{case_index}", now, id_factory=_ids(case_index))
        return {"offers": offers, "limits": credit_limits(result, pricing, now)}
    if kind == "by_installments":
        return simulate_by_installments(
            result,
            pricing,
            case["installments"],
            case["insured"],
            proposal_id=f"p-{case_index}",
            now=now,
            id_factory=_ids(case_index),
        )
    return simulate_by_loan_amount(
        result,
        pricing,
        case["loan_amount"],
        case["insured"],
        proposal_id=f"p-{case_index}",
        now=now,
        id_factory=_ids(case_index),
    )


def _compact(quote) -> dict:
    """A FinancedAmounts with its schedule as a digest (96 rows x 130 quotes would bloat the fixture)."""
    fields = {name: getattr(quote, name) for name in quote.__dataclass_fields__ if name != "schedule"}
    rows = json.dumps(encode(quote.schedule), sort_keys=True)
    return {**fields, "schedule_sha256": hashlib.sha256(rows.encode()).hexdigest(), "last_row": quote.schedule[-1]}


def encode(value):
    """JSON-safe, lossless: Decimal keeps its exact digits and exponent, types are tagged."""
    if isinstance(value, Decimal):
        return {"$decimal": str(value)}
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, date):
        return {"$date": value.isoformat()}
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return {"$" + type(value).__name__: {name: encode(getattr(value, name)) for name in value.__dataclass_fields__}}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"cannot encode {type(value).__name__}")


def outputs() -> list:
    """Encoded output of every case, in order."""
    return [encode(run(case, index)) for index, case in enumerate(cases())]


def write_fixture() -> None:
    """One case per line so a diff points at the case that changed."""
    lines = [json.dumps(item, sort_keys=True, separators=(",", ":")) for item in outputs()]
    FIXTURE.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")


if __name__ == "__main__":
    write_fixture()

"""CPU time of the offer math alone: one credit analysis (build_offers + credit_limits) and the simulations.

Run from the project root: ``python -m bench.offer_math [--rounds N]``. Inputs are the
production pricing shape (config.toml [default.credit.pricing]) and seeded varied
analyses; time is process CPU time (time.process_time), so other load on the
machine barely moves it. Each measurement uses its own seeded inputs.

Recorded on the 2-CPU bench machine (BENCHMARKS.md), CPU ms per call:

    call                                   before (067cb5a)   after (perf-math)
    credit analysis (offers + limits)            43.6              3.9   (11x)
    build_offers                                 30.6              2.5   (12x)
    simulate_by_installments (48x, insured)       7.0              0.77  (9x)
    simulate_by_loan_amount (8 terms)            19.3              4.3   (4.5x: up to 8 offers, one CET each)
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from models.domain.errors import DomainError
from models.domain.loan.offers import build_offers, credit_limits
from models.domain.loan.pricing import AnalysisResult
from models.domain.loan.simulation import simulate_by_installments, simulate_by_loan_amount
from models.services.credit.products import pricing
from models.settings import load_settings

D = Decimal
# The product as configured (config.toml, [default.credit.pricing]).
PRICING = pricing(load_settings().credit.pricing)


def _inputs(count: int, seed: int) -> list[tuple[AnalysisResult, datetime]]:
    rng = random.Random(seed)
    start = datetime(2026, 11, 1, 12, tzinfo=timezone.utc)
    return [
        (
            AnalysisResult(
                available_margin=D(rng.randint(5000, 400000)) / 100,
                max_installments=96,
                monthly_rate=D(rng.randint(150, 450)) / 10000,
                pod_limit_max=D(rng.randint(5, 150)) * 1000,
                insurance_enabled=True,
            ),
            start + timedelta(hours=rng.randrange(24 * 365)),
        )
        for _ in range(count)
    ]


def _cpu_ms_per_call(calls) -> float:
    started = time.process_time()
    for call in calls:
        try:
            call()
        except DomainError:
            pass
    return (time.process_time() - started) * 1000 / len(calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=40, help="distinct analyses per measurement")
    args = parser.parse_args()
    count = args.count
    analysis = [
        lambda r=r, t=t: (build_offers(r, PRICING, "p", t), credit_limits(r, PRICING, t)) for r, t in _inputs(count, 1)
    ]
    offers = [lambda r=r, t=t: build_offers(r, PRICING, "p", t) for r, t in _inputs(count, 2)]
    by_term = [lambda r=r, t=t: simulate_by_installments(r, PRICING, 48, True, now=t) for r, t in _inputs(count, 3)]
    by_amount = [
        lambda r=r, t=t: simulate_by_loan_amount(r, PRICING, D("5000.00"), False, now=t) for r, t in _inputs(count, 4)
    ]
    print(f"CPU ms per call, mean over {args.count} seeded analyses (process_time)")
    for name, calls in (
        ("credit analysis (build_offers + credit_limits)", analysis),
        ("build_offers", offers),
        ("simulate_by_installments (48x, insured)", by_term),
        ("simulate_by_loan_amount (R$ 5,000, 8 terms)", by_amount),
    ):
        print(f"  {name:48s} {_cpu_ms_per_call(calls):9.2f} ms")


if __name__ == "__main__":
    main()

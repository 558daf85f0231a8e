"""The arithmetic of bench/element_bound.py: a proposal's parts priced, and the machine's CPU over
a block less what the idle machine burns."""

import pytest

from bench import element_bound
from bench.element_bound import Counts, MachineCpu

UNIT = {"call": 5.0, "post": 1.5, "hop": 2.0, "render": 10.0, "signed": 4.0}


def test_the_parts_cost_their_counts_times_their_unit_costs():
    assert element_bound.cost(Counts(calls=9, posts=11, hops=3, renders=1, signed_renders=0), UNIT) == pytest.approx(
        9 * 5.0 + 11 * 1.5 + 3 * 2.0 + 10.0
    )
    assert element_bound.cost(Counts(calls=0, posts=0, hops=0, renders=1, signed_renders=1), UNIT) == 14.0


def test_the_least_a_proposal_needs_is_the_spec_happy_path():
    assert Counts(calls=9, posts=11, hops=3, renders=1, signed_renders=0) == element_bound.LEAST


def test_machine_cpu_subtracts_the_idle_rate_read_before_the_block(monkeypatch):
    clock = {"now": 100.0, "busy": 50.0}
    monkeypatch.setattr(element_bound, "busy_seconds", lambda: clock["busy"])
    monkeypatch.setattr(element_bound.time, "monotonic", lambda: clock["now"])

    def sleep(seconds):  # idle: 0.1 CPU seconds per second
        clock["now"] += seconds
        clock["busy"] += 0.1 * seconds

    monkeypatch.setattr(element_bound.time, "sleep", sleep)
    with MachineCpu(idle_sample=2.0).measure() as spent:
        clock["now"] += 10.0
        clock["busy"] += 7.0  # 1.0 of it the idle rate
    assert spent.wall == pytest.approx(10.0)
    assert spent.seconds == pytest.approx(6.0)


def test_busy_seconds_reads_the_machine_and_only_grows():
    first = element_bound.busy_seconds()
    sum(range(200_000))
    assert 0 < first <= element_bound.busy_seconds()

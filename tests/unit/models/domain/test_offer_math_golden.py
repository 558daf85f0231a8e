"""Golden equivalence: offers, limits, simulations and gross-up return exactly what the fixture recorded.

The fixture was written by the reference (pre-optimisation) implementation; see
golden_cases.py for the seeded inputs. Any differing amount, date, id or error
fails, with the indices of the cases that changed.
"""

import json

import pytest

from tests.unit.models.domain import golden_cases

CASES = golden_cases.cases()
EXPECTED = json.loads(golden_cases.FIXTURE.read_text(encoding="utf-8"))


def test_fixture_matches_the_case_list():
    assert len(EXPECTED) == len(CASES)


@pytest.mark.parametrize("kind", ["offers", "by_installments", "by_amount", "gross_up"])
def test_outputs_equal_the_recorded_ones(kind):
    indices = [index for index, case in enumerate(CASES) if case["kind"] == kind]
    changed = [
        index for index in indices if golden_cases.encode(golden_cases.run(CASES[index], index)) != EXPECTED[index]
    ]
    assert changed == [], f"{len(changed)} of {len(indices)} {kind} cases changed, first: {changed[0]}"

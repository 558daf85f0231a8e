"""The statistics funnel: every status but EXPIRED implies exactly one step, in path order."""

from models.domain.funnel import FUNNEL_STEPS, funnel_step
from models.domain.statuses import Status
from tests.builders import HAPPY_PATH


def test_every_status_but_expired_has_a_step():
    assert [status for status in Status if funnel_step(status) is None] == [Status.EXPIRED]
    assert funnel_step("not a status") is None


def test_steps_never_go_back_along_the_happy_path_and_each_is_reached():
    steps = [funnel_step(status) for status in HAPPY_PATH]
    assert steps == sorted(steps) and set(steps) == set(range(len(FUNNEL_STEPS)))
    assert FUNNEL_STEPS[funnel_step("REJECTED")] == "CREDIT_ANALYSIS"
    assert FUNNEL_STEPS[funnel_step("CANCELLED_BY_USER")] == "DISBURSED"

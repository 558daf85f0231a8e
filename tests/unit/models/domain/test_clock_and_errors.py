from datetime import datetime, timedelta, timezone

from freezegun import freeze_time

from models.domain import clock
from models.domain.errors import BusinessRuleViolation, DomainError, InvalidTransition, ValidationFailed
from models.domain.statuses import Status


@freeze_time("2026-03-10 12:34:56.789123")
def test_now_is_aware_utc_and_frozen():
    current = clock.now()
    assert current == datetime(2026, 3, 10, 12, 34, 56, 789123, tzinfo=timezone.utc)
    assert current.utcoffset() == timedelta(0)


@freeze_time("2026-03-10 12:00:00")
def test_local_now_is_sao_paulo_minus_three():
    local = clock.local_now()
    assert local.tzinfo is clock.SAO_PAULO
    assert (local.hour, local.utcoffset()) == (9, timedelta(hours=-3))


def test_to_local_treats_naive_as_utc():
    assert clock.to_local(datetime(2026, 1, 1, 3, 0)).hour == 0


def test_isoformat_z_has_milliseconds_and_z():
    moment = datetime(2026, 5, 11, 9, 8, 7, 654999, tzinfo=clock.SAO_PAULO)
    assert clock.isoformat_z(moment) == "2026-05-11T12:08:07.654Z"
    assert clock.isoformat_z(datetime(2026, 1, 2, tzinfo=timezone.utc)) == "2026-01-02T00:00:00.000Z"
    assert clock.isoformat_z(datetime(2026, 1, 2, 3, 4, 5, 999999)) == "2026-01-02T03:04:05.999Z"  # naive: UTC
    assert clock.isoformat_z(datetime(999, 1, 2, tzinfo=timezone.utc)) == "0999-01-02T00:00:00.000Z"  # YYYY


def test_isoformat_z_under_frozen_time():
    from freezegun import freeze_time

    with freeze_time("2026-11-27T09:30:29.123456Z"):
        assert clock.isoformat_z(clock.now()) == "2026-11-27T09:30:29.123Z"


def test_domain_error_defaults():
    error = DomainError("boom")
    assert (error.message, error.error_code, error.http_status, error.details) == ("boom", None, 400, {})
    assert str(error) == "boom"


def test_subclass_statuses_and_overrides():
    assert ValidationFailed("x", details={"field": "cpf"}).details == {"field": "cpf"}
    assert ValidationFailed("x").http_status == 400
    assert BusinessRuleViolation("x").http_status == 422
    assert BusinessRuleViolation("x", http_status=409).http_status == 409
    assert isinstance(InvalidTransition("x"), DomainError)


def test_invalid_transition_details_carry_wire_values():
    error = InvalidTransition("no", current_status=Status.SIGNED, trigger="CANCEL", error_code="E")
    assert error.http_status == 409
    assert error.details == {"currentStatus": "SIGNED", "trigger": "CANCEL"}
    assert error.current_status is Status.SIGNED

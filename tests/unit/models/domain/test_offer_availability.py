"""Offer expiry and availability: ACTIVE, EXPIRED or SUPERSEDED, decided at read time."""

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from models.domain.clock import now
from models.domain.errors import ValidationFailed
from models.domain.offer_availability import OfferStatus, ensure_available, offer_availability, offer_expiry

CREATED = datetime(2026, 12, 28, 15, 0, tzinfo=timezone.utc)
EXPIRES = datetime(2027, 1, 4, 15, 0, tzinfo=timezone.utc)
SUPERSEDED = CREATED + timedelta(hours=1)


def test_offer_expiry_is_validity_days_later():
    assert offer_expiry(CREATED, 7) == EXPIRES
    assert offer_expiry(CREATED, 5) == datetime(2027, 1, 2, 15, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "instant,status",
    [
        (EXPIRES - timedelta(seconds=1), OfferStatus.ACTIVE),
        (EXPIRES - timedelta(microseconds=1), OfferStatus.ACTIVE),
        (EXPIRES, OfferStatus.EXPIRED),
        (EXPIRES + timedelta(seconds=1), OfferStatus.EXPIRED),
    ],
)
def test_expiry_edge(instant, status):
    with freeze_time(instant):
        state = offer_availability(EXPIRES, None, is_selected=False, now=now())
    assert state.status is status
    assert state.is_available is (status is OfferStatus.ACTIVE)


@pytest.mark.parametrize("instant", [EXPIRES - timedelta(seconds=1), EXPIRES])
def test_a_superseded_offer_reads_superseded_before_and_after_its_expiry(instant):
    with freeze_time(instant):
        state = offer_availability(EXPIRES, SUPERSEDED, is_selected=False, now=now())
    assert (state.status, state.is_available) == (OfferStatus.SUPERSEDED, False)


@pytest.mark.parametrize(
    "instant,status", [(EXPIRES - timedelta(seconds=1), OfferStatus.ACTIVE), (EXPIRES, OfferStatus.EXPIRED)]
)
def test_the_selected_offer_is_never_superseded_but_still_expires(instant, status):
    with freeze_time(instant):
        state = offer_availability(EXPIRES, SUPERSEDED, is_selected=True, now=now())
    assert state.status is status


def test_naive_instants_are_read_as_utc():
    naive_expiry = EXPIRES.replace(tzinfo=None)
    assert offer_availability(naive_expiry, None, is_selected=False, now=EXPIRES).status is OfferStatus.EXPIRED


@pytest.mark.parametrize(
    "superseded_at,instant,code",
    [
        (SUPERSEDED, CREATED + timedelta(days=1), "OFFER_NOT_AVAILABLE"),
        (None, EXPIRES, "OFFER_EXPIRED"),
    ],
)
def test_ensure_available_refuses_with_the_pre_accept_codes(superseded_at, instant, code):
    with pytest.raises(ValidationFailed) as raised:
        ensure_available(offer_availability(EXPIRES, superseded_at, is_selected=False, now=instant))
    assert (raised.value.http_status, raised.value.error_code, raised.value.details) == (
        400,
        code,
        {"field": "selected_offer_id"},
    )


def test_ensure_available_lets_an_active_offer_through():
    assert ensure_available(offer_availability(EXPIRES, None, is_selected=False, now=CREATED)) is None

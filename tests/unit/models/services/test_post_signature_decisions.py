"""After-signature decisions with a fake fraud provider and plain settings: which signed contracts go
to fraud analysis, and when the funder is asked to pay."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timezone
from decimal import Decimal

import freezegun

from models.db.contracts import Contract
from models.domain.policies import AMOUNT_ABOVE_LIMIT, FLAGGED
from models.external.fraud.port import FraudCase
from models.services.disbursement.post_signature import fraud_review, payment_time
from models.settings import load_settings
from tests.support.fake_ports import FakeFraud

SETTINGS = load_settings("test", environ={})  # review above R$ 30,000.00; pay at 09:00 local


def _case(amount: str) -> FraudCase:
    return FraudCase("contract-1", "52998224725", "MARIA DA SILVA", Decimal(amount), "PARTNER_A")


def test_an_amount_above_the_limit_goes_to_review_without_asking_the_provider():
    fraud = FakeFraud(attention=False)
    assert fraud_review(_case("30000.01"), fraud=fraud, fraud_settings=SETTINGS.fraud) == AMOUNT_ABOVE_LIMIT
    assert fraud.asked == []


def test_below_the_limit_the_provider_flag_decides():
    flagged, clear = FakeFraud(attention=True), FakeFraud(attention=False)
    assert fraud_review(_case("30000.00"), fraud=flagged, fraud_settings=SETTINGS.fraud) == FLAGGED
    assert fraud_review(_case("1500.00"), fraud=clear, fraud_settings=SETTINGS.fraud) is None
    assert [case.contract_id for case in flagged.asked + clear.asked] == ["contract-1", "contract-1"]


def test_the_review_limit_comes_from_the_settings():
    lower = replace(SETTINGS.fraud, review_above_amount=Decimal("1000.00"))
    assert fraud_review(_case("1500.00"), fraud=FakeFraud(), fraud_settings=lower) == AMOUNT_ABOVE_LIMIT


@freezegun.freeze_time("2026-03-10T15:00:00Z")
def test_pay_immediately_pays_now():
    contract = Contract(disbursement_date=date(2026, 3, 11))
    paying_now = replace(SETTINGS.disbursement, pay_immediately=True)
    assert payment_time(contract, disbursement_settings=paying_now) == datetime(2026, 3, 10, 15, tzinfo=timezone.utc)


@freezegun.freeze_time("2026-03-10T15:00:00Z")
def test_otherwise_payment_waits_for_the_local_time_of_the_disbursement_date():
    on_date = replace(SETTINGS.disbursement, pay_immediately=False, pay_at_local_time="09:00")
    contract = Contract(disbursement_date=date(2026, 3, 11))
    assert payment_time(contract, disbursement_settings=on_date) == datetime(2026, 3, 11, 12, tzinfo=timezone.utc)


@freezegun.freeze_time("2026-03-11T15:00:00Z")
def test_a_payment_time_already_past_is_now():
    on_date = replace(SETTINGS.disbursement, pay_immediately=False)
    contract = Contract(disbursement_date=date(2026, 3, 11))
    assert payment_time(contract, disbursement_settings=on_date) == datetime(2026, 3, 11, 15, tzinfo=timezone.utc)


@freezegun.freeze_time("2026-03-10T15:00:00Z")
def test_payment_time_is_judged_at_the_proposals_now_when_given():
    """A sandbox proposal whose clock runs ahead (README "Sandbox test clock"): past the planned
    time on its clock, it is paid at its now."""
    on_date = replace(SETTINGS.disbursement, pay_immediately=False, pay_at_local_time="09:00")
    contract = Contract(disbursement_date=date(2026, 3, 11))
    ahead = datetime(2026, 3, 11, 13, tzinfo=timezone.utc)
    assert payment_time(contract, at=ahead, disbursement_settings=on_date) == ahead

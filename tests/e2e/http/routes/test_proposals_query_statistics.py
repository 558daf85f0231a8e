"""GET /v1/proposals/statistics: counts by status, funnel and amounts, per origin and date range."""

from datetime import datetime, timedelta
from decimal import Decimal

from tests import builders as f

URL = "/v1/proposals/statistics"
TO_OFFERS = f.path_to("OFFERS_RECEIVED")
TO_DISBURSED = f.path_to("DISBURSED")


def funnel(body):
    return {step["step"]: step["count"] for step in body["funnel"]}


def test_counts_funnel_and_amounts(client, auth):
    # Given four proposals: created only, rejected, expired after offers, disbursed
    f.proposal()
    f.proposal(path=("TOKEN_SENT", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_IN_PROGRESS", "REJECTED"))
    f.proposal(path=(*TO_OFFERS, "EXPIRED"))
    done = f.proposal(path=TO_DISBURSED)
    f.contract(
        done,
        principal_amount=Decimal("5000.00"),
        disbursement_amount=Decimal("4900.00"),
        signed_at=f.T0,
        disbursement_paid_at=f.T0 + timedelta(days=1),
    )
    # When asking statistics
    body = client.get(URL, headers=auth()).get_json()
    # Then counts by current status, with zeros for the rest
    assert body["total"] == 4
    assert len(body["by_status"]) == 28
    assert {k: v for k, v in body["by_status"].items() if v} == {
        "CREATED": 1,
        "REJECTED": 1,
        "EXPIRED": 1,
        "DISBURSED": 1,
    }
    # And the funnel counts every proposal that ever reached a step
    assert funnel(body) == {
        "CREATED": 4,
        "TOKEN_VALIDATED": 3,
        "CREDIT_ANALYSIS": 3,
        "OFFERS_RECEIVED": 2,
        "PRE_ACCEPTED": 1,
        "BANK_DATA_SUBMITTED": 1,
        "CONTRACT_GENERATED": 1,
        "SIGNED": 1,
        "DISBURSED": 1,
    }
    offers = next(s for s in body["funnel"] if s["step"] == "OFFERS_RECEIVED")
    assert offers == {
        "step": "OFFERS_RECEIVED",
        "count": 2,
        "conversion_from_previous": 0.6667,
        "conversion_from_start": 0.5,
    }
    # And the amounts
    assert body["amounts"] == {
        "contracts": {"count": 1, "principal_amount": 5000.0, "disbursement_amount": 4900.0},
        "signed": {"count": 1, "principal_amount": 5000.0, "disbursement_amount": 4900.0},
        "disbursed": {"count": 1, "principal_amount": 5000.0, "disbursement_amount": 4900.0},
    }


def test_empty_origin_has_zeros(client, auth):
    f.proposal(origin="PARTNER_A", path=TO_OFFERS)
    body = client.get(URL, headers=auth("PARTNER_B")).get_json()
    assert body["origin"] == "PARTNER_B" and body["total"] == 0
    assert set(funnel(body).values()) == {0}
    assert body["funnel"][0] == {
        "step": "CREATED",
        "count": 0,
        "conversion_from_previous": 0.0,
        "conversion_from_start": 0.0,
    }
    assert body["amounts"]["disbursed"] == {"count": 0, "principal_amount": 0.0, "disbursement_amount": 0.0}


def test_date_range_in_sao_paulo_days(client, auth):
    # Given proposals on 9, 10 and 11 May (local), the 10th ending at 02:59 UTC on the 11th
    f.proposal(created_at=datetime.fromisoformat("2026-05-10T02:00:00+00:00"))
    f.proposal(created_at=datetime.fromisoformat("2026-05-11T02:59:00+00:00"))
    f.proposal(created_at=datetime.fromisoformat("2026-05-11T03:00:00+00:00"))
    # When asking for the 10th only
    body = client.get(
        URL, query_string={"created_from": "2026-05-10", "created_to": "2026-05-10"}, headers=auth()
    ).get_json()
    # Then one proposal, and the period echoed
    assert body["total"] == 1
    assert body["period"] == {"created_from": "2026-05-10", "created_to": "2026-05-10", "timezone": "America/Sao_Paulo"}


def test_inverted_range_is_400(client, auth):
    response = client.get(URL, query_string={"created_from": "2026-05-11", "created_to": "2026-05-01"}, headers=auth())
    assert response.status_code == 400
    assert response.get_json()["details"] == {"field": "created_from"}


def test_malformed_date_is_400(client, auth):
    response = client.get(URL, query_string={"created_to": "yesterday"}, headers=auth())
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == "created_to"


def test_expired_counts_up_to_the_step_it_expired_from(client, auth):
    # Given one proposal expired while awaiting signature, one expired with offers
    f.proposal(path=(*TO_DISBURSED[:11], "EXPIRED"))
    f.proposal(path=(*TO_OFFERS, "EXPIRED"))
    # When asking statistics
    steps = funnel(client.get(URL, headers=auth()).get_json())
    # Then the first reached the generated contract, the second the offers
    assert steps["CONTRACT_GENERATED"] == 1 and steps["SIGNED"] == 0
    assert steps["OFFERS_RECEIVED"] == 2

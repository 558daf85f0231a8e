"""GET /v1/proposals/{id}: the full detail, its masking, and 403/404."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from freezegun import freeze_time

from tests import builders as f

# The spec's Offer table: every field, nothing internal (kind, cost_breakdown) or beyond it.
SPEC_OFFER_FIELDS = {
    *("id", "proposal_id", "offer_type", "status", "description", "principal_amount", "interest_rate"),
    *("annual_interest_rate", "installments", "installment_amount", "total_amount", "iof_amount", "tac_amount"),
    *("insurance_amount", "first_due_date", "final_due_date", "expires_at", "calculation_details"),
    *("terms_and_conditions", "priority", "is_available", "created_at", "updated_at"),
}


def url(proposal_id):
    return f"/v1/proposals/{proposal_id}"


def test_detail_of_a_proposal_just_created(client, auth):
    # Given a proposal with nothing but its creation
    p = f.proposal()
    # When reading it
    body = client.get(url(p.id), headers=auth()).get_json()
    # Then the sections it has not reached are null or empty
    assert body["id"] == p.id and body["status"] == "CREATED"
    assert {
        k: body[k]
        for k in ("banking_data", "consent", "credit_analysis", "offers", "contract", "signature", "disbursement")
    } == {
        "banking_data": None,
        "consent": None,
        "credit_analysis": None,
        "offers": [],
        "contract": None,
        "signature": None,
        "disbursement": None,
    }
    assert body["status_history"] == [
        {
            "sequence": 0,
            "old_status": None,
            "new_status": "CREATED",
            "trigger": "TEST",
            "source": "http",
            "changed_at": "2026-05-11T15:00:00.000Z",
        }
    ]


def test_detail_of_a_disbursed_proposal(client, auth):
    # Given a proposal that went the whole way
    p = f.proposal(
        path=f.path_to("DISBURSED"),
        bank_code="341",
        bank_branch="0001",
        bank_account="99887766",
        bank_account_digit="1",
        account_type="savings",
    )
    f.consent(p)
    a = f.analysis(p)
    chosen = f.offer(p, analysis=a.id)
    f.offer(p, kind="insured", analysis=a.id, superseded_at=f.T0 + timedelta(hours=1))
    p.selected_offer_id = chosen.id
    p.save()
    c = f.contract(
        p,
        signature_id="sig-1",
        unico_process_id="proc-1",
        signature_status="SIGNED",
        user_redirect_url="https://sign.example/1",
        signature_expires_at=f.T0 + timedelta(days=1),
        signed_at=f.T0 + timedelta(hours=2),
        disbursement_paid_at=f.T0 + timedelta(days=1),
    )
    f.disbursement(c)
    # When reading it (before the offers expire)
    with freeze_time(f.T0 + timedelta(days=2)):
        body = client.get(url(p.id), headers=auth()).get_json()
    # Then every section is filled, sensitive banking data masked
    assert body["banking_data"] == {
        "method": "ACCOUNT",
        "bank_code": "341",
        "bank_branch": "0001",
        "bank_branch_digit": None,
        "bank_account": "****7766-1",
        "account_type": "savings",
        "use_pix_cpf": False,
        "pix_key": None,
        "pix_key_type": None,
    }
    assert body["consent"] == {
        "ip": "203.0.113.7",
        "geolocation": {"latitude": -23.5505, "longitude": -46.6333},
        "channel": "web",
        "captured_at": "2026-05-11T15:00:00.000Z",
    }
    assert body["credit_analysis"]["outcome"] == "APPROVED" and body["credit_analysis"]["max_loan_amount"] == 10000.0
    assert [(o["id"], o["status"], o["is_available"]) for o in body["offers"]] == [(chosen.id, "ACTIVE", True)]
    assert set(body["offers"][0]) == SPEC_OFFER_FIELDS
    assert body["selected_offer"]["id"] == chosen.id
    assert body["contract"]["contract_id"] == c.id and body["contract"]["status"] == "ISSUED"
    assert body["signature"] == {
        "signature_id": "sig-1",
        "unico_process_id": "proc-1",
        "status": "SIGNED",
        "user_redirect_url": "https://sign.example/1",
        "expires_at": "2026-05-12T15:00:00.000Z",
        "signed_at": "2026-05-11T17:00:00.000Z",
    }
    assert body["disbursement"] == {
        "status": "PAID",
        "amount": 5000.0,
        "scheduled_for": "2026-05-12",
        "attempts": 1,
        "paid_at": "2026-05-12T15:00:00.000Z",
    }
    assert [h["new_status"] for h in body["status_history"]][-3:] == ["AWAITING_SIGNATURE", "SIGNED", "DISBURSED"]


@pytest.mark.parametrize(
    "instant,status", [(f.T0 + timedelta(days=7, seconds=-1), "ACTIVE"), (f.T0 + timedelta(days=7), "EXPIRED")]
)
def test_offers_are_served_like_the_analysis_routes_serve_them(client, auth, instant, status):
    # Given an offer stored with its whole payload (status ACTIVE, internal keys included) that
    # expires at T0 + 7 days
    p = f.proposal(path=("OFFERS_RECEIVED",))
    stored = f.stored_offer_payload(p.id, "6d1b8a52-0000-4000-8000-000000000001")
    assert stored["status"] == "ACTIVE" and {"kind", "cost_breakdown", "cet"} <= set(stored)
    f.offer(p, id=stored["id"], payload=stored)
    # When reading the detail one second before, or at, the expiry instant
    with freeze_time(instant):
        offers = client.get(url(p.id), headers=auth()).get_json()["offers"]
    # Then status and is_available are those of now, and only the spec's fields are served
    assert [(o["id"], o["status"], o["is_available"]) for o in offers] == [(stored["id"], status, status == "ACTIVE")]
    assert set(offers[0]) == SPEC_OFFER_FIELDS
    assert offers[0]["principal_amount"] == stored["principal_amount"]


def test_pix_key_is_masked(client, auth):
    p = f.proposal(path=("BANK_DATA_SUBMITTED",), pix_key="maria.silva@example.com", pix_key_type="EMAIL")
    banking = client.get(url(p.id), headers=auth()).get_json()["banking_data"]
    assert banking["method"] == "PIX_KEY"
    assert banking["pix_key"] == "*******************.com" and banking["pix_key_type"] == "EMAIL"


def test_pix_cpf_method(client, auth):
    p = f.proposal(path=("BANK_DATA_SUBMITTED",), use_pix_cpf=True)
    assert client.get(url(p.id), headers=auth()).get_json()["banking_data"]["method"] == "PIX_CPF"


def test_another_origins_proposal_is_403(client, auth):
    p = f.proposal(origin="PARTNER_A")
    response = client.get(url(p.id), headers=auth("PARTNER_B"))
    assert response.status_code == 403
    assert response.get_json()["errorCode"] == "FORBIDDEN"


def test_unknown_proposal_is_404(client, auth):
    response = client.get(url("9b2d8f0e-1111-4222-8333-444455556666"), headers=auth())
    assert response.status_code == 404
    assert response.get_json()["errorCode"] == "PROPOSAL_NOT_FOUND"


def test_statistics_is_not_taken_for_an_id(client, auth):
    response = client.get("/v1/proposals/statistics", headers=auth())
    assert response.status_code == 200
    assert "by_status" in response.get_json()


def test_latest_contract_and_its_money_fields(client, auth):
    p = f.proposal(path=("CANCELED",))
    f.contract(p, status="CANCELED", created_at=f.T0)
    latest = f.contract(
        p,
        status="PENDING",
        created_at=f.T0 + timedelta(hours=1),
        principal_amount=Decimal("4321.09"),
        first_due_date=date(2026, 8, 5),
    )
    contract = client.get(url(p.id), headers=auth()).get_json()["contract"]
    assert contract["contract_id"] == latest.id
    assert contract["principal_amount"] == 4321.09 and contract["first_due_date"] == "2026-08-05"

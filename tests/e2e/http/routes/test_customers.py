"""GET /v1/customers/{cpf}/contracts, /available-loan-amount and /summary."""

from datetime import date, timedelta
from decimal import Decimal

import pytest

from tests import builders as f

CPF = "52998224725"


def contracts_url(cpf=CPF):
    return f"/v1/customers/{cpf}/contracts"


def amount_url(cpf=CPF):
    return f"/v1/customers/{cpf}/available-loan-amount"


def summary_url(cpf=CPF):
    return f"/v1/customers/{cpf}/summary"


def disbursed_contract(origin: str, principal: str, paid_at, cpf: str = CPF):
    p = f.proposal(cpf=cpf, origin=origin, path=("DISBURSED",))
    return f.contract(p, principal_amount=Decimal(principal), disbursement_paid_at=paid_at)


@pytest.mark.parametrize("url", [contracts_url, amount_url, summary_url])
@pytest.mark.parametrize(
    "cpf",
    ["5299822472", "529982247250", "529.982.247-25", "5299822472a", "52998224724", "11111111111", "5299822472\uff15"],
)
def test_invalid_cpf_is_400(client, auth, url, cpf):
    response = client.get(url(cpf), headers=auth())
    assert response.status_code == 400
    assert response.get_json() == {
        "statusCode": 400,
        "message": "Invalid CPF: it must be 11 digits with valid check digits",
        "error": "Bad Request",
        "errorCode": "INVALID_CPF",
        "details": {"field": "cpf"},
    }


def test_contracts_have_exactly_the_spec_fields(client, auth):
    # Given a disbursed contract of the origin
    p = f.proposal(cpf=CPF, path=("DISBURSED",))
    c = f.contract(
        p,
        issuer_application_id="CCB-2026-000123",
        disbursement_amount=Decimal("4950.00"),
        disbursement_date=date(2026, 5, 12),
        disbursement_paid_at=f.T0 + timedelta(days=1),
        issue_date=f.T0,
    )
    # When listing the customer's contracts
    response = client.get(contracts_url(), headers=auth())
    # Then the Customer contract fields, exactly
    assert response.status_code == 200
    assert response.get_json() == {
        "cpf": CPF,
        "total": 1,
        "contracts": [
            {
                "contract_id": c.id,
                "proposal_id": p.id,
                "status": "ISSUED",
                "issuer_application_id": "CCB-2026-000123",
                "principal_amount": 5000.0,
                "total_amount": 6939.6,
                "installment_amount": 289.15,
                "installments": 24,
                "interest_rate": 1.99,
                "disbursement_amount": 4950.0,
                "disbursement_date": "2026-05-12",
                "disbursement_paid_at": "2026-05-12T15:00:00.000Z",
                "first_due_date": "2026-07-05",
                "final_due_date": "2028-06-05",
                "issue_date": "2026-05-11T15:00:00.000Z",
                "created_at": "2026-05-11T15:00:00.000Z",
            }
        ],
    }


def test_contracts_of_every_status_newest_first(client, auth):
    p = f.proposal(cpf=CPF, path=("CANCELED",))
    old = f.contract(p, status="CANCELED", created_at=f.T0)
    new = f.contract(
        f.proposal(cpf=CPF, path=("AWAITING_SIGNATURE",)), status="PENDING", created_at=f.T0 + timedelta(days=2)
    )
    body = client.get(contracts_url(), headers=auth()).get_json()
    assert [c["contract_id"] for c in body["contracts"]] == [new.id, old.id]
    assert body["total"] == 2


def test_contracts_are_only_the_origins(client, auth):
    # Given a contract at PARTNER_A
    disbursed_contract("PARTNER_A", "5000.00", f.T0)
    # When PARTNER_B asks
    response = client.get(contracts_url(), headers=auth("PARTNER_B"))
    # Then an empty list, not an error
    assert response.status_code == 200
    assert response.get_json() == {"cpf": CPF, "total": 0, "contracts": []}


def test_available_amount_is_the_approved_limit_when_nothing_was_disbursed(client, auth):
    # Given an approved analysis with a R$ 10,000 limit
    a = f.analysis(f.proposal(cpf=CPF))
    # When asking
    response = client.get(amount_url(), headers=auth())
    # Then the full limit and the approval time
    assert response.status_code == 200
    assert response.get_json() == {
        "cpf": CPF,
        "available_loan_amount": 10000.0,
        "approved_at": "2026-05-11T15:00:09.000Z",
    }
    assert a.approved_at is not None


def test_available_amount_subtracts_contracts_disbursed_after_approval_at_any_origin(client, auth):
    """Spec, available-loan-amount: "minus the amounts of all contracts disbursed after that approval,
    across all origins"."""
    # Given PARTNER_A's approval, then disbursements at A and at B, and one at B before the approval
    a = f.analysis(f.proposal(cpf=CPF))
    disbursed_contract("PARTNER_A", "2500.00", a.approved_at + timedelta(hours=1))
    disbursed_contract("PARTNER_B", "1500.50", a.approved_at + timedelta(days=1))
    disbursed_contract("PARTNER_B", "9000.00", a.approved_at - timedelta(days=1))
    # And a contract signed but not yet paid
    f.contract(f.proposal(cpf=CPF, path=("SIGNED",)), principal_amount=Decimal("700.00"))
    # When PARTNER_A asks
    body = client.get(amount_url(), headers=auth()).get_json()
    # Then 10,000 - 2,500 - 1,500.50 (only paid contracts after the approval count)
    assert body["available_loan_amount"] == 5999.5


def test_available_amount_uses_the_last_approval(client, auth):
    older = f.analysis(f.proposal(cpf=CPF), pod_limit_max=Decimal("3000.00"))
    newer = f.analysis(
        f.proposal(cpf=CPF), pod_limit_max=Decimal("8000.00"), approved_at=older.approved_at + timedelta(days=3)
    )
    f.analysis(
        f.proposal(cpf=CPF),
        outcome="REJECTED",
        approved_at=None,
        pod_limit_max=None,
        started_at=newer.approved_at + timedelta(days=1),
    )
    body = client.get(amount_url(), headers=auth()).get_json()
    assert body == {"cpf": CPF, "available_loan_amount": 8000.0, "approved_at": "2026-05-14T15:00:09.000Z"}


def test_available_amount_after_a_promotional_approval_uses_the_promotional_limit(client, auth):
    # Given a standard approval, then a promotional re-analysis approval
    p = f.proposal(cpf=CPF)
    first = f.analysis(p)
    promo = f.analysis(
        p,
        kind="promotional",
        promotional=True,
        pod_limit_max=Decimal("10000.00"),
        promotional_pod_limit_max=Decimal("12500.00"),
        approved_at=first.approved_at + timedelta(hours=21),
    )
    disbursed_contract("PARTNER_B", "2000.00", promo.approved_at + timedelta(hours=1))
    # When asking
    body = client.get(amount_url(), headers=auth()).get_json()
    # Then the promotional limit minus the later disbursement
    assert body["available_loan_amount"] == 10500.0
    assert body["approved_at"] == "2026-05-12T12:00:09.000Z"


def test_available_amount_never_goes_negative(client, auth):
    a = f.analysis(f.proposal(cpf=CPF), pod_limit_max=Decimal("1000.00"))
    disbursed_contract("PARTNER_B", "4000.00", a.approved_at + timedelta(hours=1))
    assert client.get(amount_url(), headers=auth()).get_json()["available_loan_amount"] == 0.0


def test_no_approved_analysis_is_204_with_an_empty_body(client, auth):
    # Given only a rejected analysis
    f.analysis(f.proposal(cpf=CPF), outcome="REJECTED", approved_at=None)
    # When asking
    response = client.get(amount_url(), headers=auth())
    # Then 204 and nothing else
    assert response.status_code == 204
    assert response.data == b""


def test_another_origins_approval_is_not_a_base(client, auth):
    """Spec: "204 with empty body when the CPF has no approved credit analysis"; the base is "the
    last approved analysis" of the caller's origin: another origin's would reveal that it analysed
    the CPF, when, and its limit (README, "Choices where the spec is open")."""
    # Given an approval at PARTNER_A only
    f.analysis(f.proposal(cpf=CPF, origin="PARTNER_A"))
    # When PARTNER_B asks, Then 204 (B learns nothing about A's analysis)
    response = client.get(amount_url(), headers=auth("PARTNER_B"))
    assert response.status_code == 204 and response.data == b""


def test_the_base_is_the_callers_last_approval_even_when_another_origin_approved_later(client, auth):
    # Given PARTNER_B's approval (R$ 8,000), then a later one at PARTNER_A (R$ 10,000)
    mine = f.analysis(f.proposal(cpf=CPF, origin="PARTNER_B"), pod_limit_max=Decimal("8000.00"))
    f.analysis(f.proposal(cpf=CPF, origin="PARTNER_A"), approved_at=mine.approved_at + timedelta(days=1))
    # When PARTNER_B asks
    body = client.get(amount_url(), headers=auth("PARTNER_B")).get_json()
    # Then its own limit and approval time: nothing of A's analysis shows
    assert (body["available_loan_amount"], body["approved_at"]) == (8000.0, "2026-05-11T15:00:09.000Z")


def test_summary_collects_email_amount_and_contracts(client, auth):
    # Given two proposals (the newer with another email), an approval and a contract
    old = f.proposal(cpf=CPF, email="old@example.com", created_at=f.T0)
    f.proposal(cpf=CPF, email="new@example.com", created_at=f.T0 + timedelta(days=1))
    f.proposal(cpf=CPF, origin="PARTNER_B", email="b@example.com", created_at=f.T0 + timedelta(days=2))
    a = f.analysis(old)
    c = disbursed_contract("PARTNER_A", "4000.00", a.approved_at + timedelta(hours=2))
    # When asking the summary
    body = client.get(summary_url(), headers=auth()).get_json()
    # Then the origin's newest email, the amount left and the contracts
    assert body["cpf"] == CPF and body["email"] == "new@example.com"
    assert body["available_loan_amount"] == 6000.0
    assert body["available_loan_approved_at"] == "2026-05-11T15:00:09.000Z"
    assert [x["contract_id"] for x in body["contracts"]] == [c.id]


def test_summary_of_an_unknown_customer_is_nulls_and_empty(client, auth):
    # Given data only at PARTNER_A
    f.analysis(f.proposal(cpf=CPF))
    # When PARTNER_B asks
    response = client.get(summary_url(), headers=auth("PARTNER_B"))
    # Then 200 with nulls and no contracts
    assert response.status_code == 200
    assert response.get_json() == {
        "cpf": CPF,
        "email": None,
        "available_loan_amount": None,
        "available_loan_approved_at": None,
        "contracts": [],
    }

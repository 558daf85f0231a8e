"""GET /v1/proposals/{id}/analysis-data: analyses with snapshots and consent evidence."""

from datetime import timedelta

from tests import builders as f


def url(proposal_id):
    return f"/v1/proposals/{proposal_id}/analysis-data"


def test_analyses_and_consents_newest_first(client, auth):
    # Given a failed analysis then an approved retry, each with its consent
    p = f.proposal(path=("CREDIT_ANALYSIS_IN_PROGRESS", "OFFERS_RECEIVED"))
    f.consent(p, captured_at=f.T0)
    f.consent(p, captured_at=f.T0 + timedelta(hours=1), channel="app", document_text="Second consent")
    failed = f.analysis(
        p,
        outcome="FAILED",
        error_code="CRA-DTP-003",
        retryable=True,
        approved_at=None,
        pod_limit_max=None,
        margin_snapshot=None,
        engine_result=None,
    )
    approved = f.analysis(
        p,
        kind="retry",
        attempt=2,
        started_at=f.T0 + timedelta(hours=1),
        finished_at=f.T0 + timedelta(hours=1, seconds=5),
        approved_at=f.T0 + timedelta(hours=1, seconds=5),
    )
    # When reading the analysis data
    response = client.get(url(p.id), headers=auth())
    # Then both analyses, newest first, with snapshots; both consents with their text
    body = response.get_json()
    assert response.status_code == 200
    assert [a["id"] for a in body["analyses"]] == [approved.id, failed.id]
    assert body["analyses"][0] == {
        "id": approved.id,
        "outcome": "APPROVED",
        "kind": "retry",
        "attempt": 2,
        "mode": "hybrid",
        "promotional": False,
        "available_margin": 850.0,
        "max_loan_amount": 10000.0,
        "max_installments": 48,
        "max_monthly_payment": 850.0,
        "min_monthly_payment": 50.0,
        "monthly_rate": 0.0199,
        "pod_limit_max": 10000.0,
        "promotional_pod_limit_max": None,
        "rejection_reason": None,
        "error_code": None,
        "retryable": False,
        "margin_snapshot": {
            "available_margin": "850.00",
            "employer_document": "00000000000191",
            "employer_name": "ACME LTDA",
            "admission_date": "2019-08-01",
            "gross_salary": None,
        },
        "engine_result": {"score": 712, "decision": "APPROVED"},
        "started_at": "2026-05-11T16:00:00.000Z",
        "finished_at": "2026-05-11T16:00:05.000Z",
        "approved_at": "2026-05-11T16:00:05.000Z",
    }
    assert body["analyses"][1]["error_code"] == "CRA-DTP-003" and body["analyses"][1]["margin_snapshot"] is None
    assert [c["document_text"] for c in body["consents"]] == ["Second consent", "I authorise the payroll margin query."]
    assert body["consents"][0]["channel"] == "app"
    assert body["proposal_id"] == p.id and body["cpf"] == p.cpf


def test_never_analysed_is_empty(client, auth):
    p = f.proposal()
    assert client.get(url(p.id), headers=auth()).get_json() == {
        "proposal_id": p.id,
        "cpf": p.cpf,
        "analyses": [],
        "consents": [],
    }


def test_another_origins_proposal_is_403(client, auth):
    p = f.proposal(origin="PARTNER_A")
    f.analysis(p)
    assert client.get(url(p.id), headers=auth("PARTNER_B")).status_code == 403


def test_unknown_proposal_is_404(client, auth):
    assert client.get(url("00000000-0000-4000-8000-00000000abcd"), headers=auth()).status_code == 404

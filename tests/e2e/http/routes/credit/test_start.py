"""POST /proposals/start: validation, creation, returning the active proposal, blocking rules."""

import pytest

from models import runtime
from models.db.proposals import Proposal, StatusChange

CPF = "52998224725"
BODY = {"cpf": CPF, "full_name": "  maria da silva ", "birth_date": "1985-04-12"}


def _set_status(proposal_id: str, status: str) -> None:
    Proposal.update(status=status).where(Proposal.id == proposal_id).execute()


def test_creates_a_proposal_with_the_name_upper_cased_and_the_insured_product(flow):
    response = flow.post("/proposals/start", BODY)
    body = response.get_json()
    assert response.status_code == 201
    assert body == {
        "message": "Proposal created",
        "proposal_id": body["proposal_id"],
        "cpf": CPF,
        "full_name": "MARIA DA SILVA",
        "product_id": runtime.current().settings.products.insured_id,
        "status": "CREATED",
    }


def test_partner_without_insurance_gets_the_standard_product(flow):
    response = flow.post("/proposals/start", BODY, "PARTNER_B")
    assert response.get_json()["product_id"] == runtime.current().settings.products.standard_id


def test_creation_records_the_created_status_change(flow):
    proposal_id = flow.post("/proposals/start", BODY).get_json()["proposal_id"]
    assert [c.new_status for c in StatusChange.select().where(StatusChange.proposal == proposal_id)] == ["CREATED"]


@pytest.mark.parametrize(
    "field,value",
    [
        ("cpf", "52998224726"),
        ("cpf", "1234567890"),
        ("cpf", "11111111111"),
        ("full_name", "M4ria"),
        ("birth_date", "2999-01-01"),
        ("birth_date", "12/04/1985"),
    ],
)
def test_rejects_invalid_input_naming_the_field(flow, field, value):
    response = flow.post("/proposals/start", {**BODY, field: value})
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == field
    assert response.get_json()["errorCode"] == "VALIDATION_ERROR"


def test_returns_the_active_proposal_instead_of_creating_one(flow):
    first = flow.post("/proposals/start", BODY).get_json()["proposal_id"]
    response = flow.post("/proposals/start", BODY)
    assert response.status_code == 200
    assert response.get_json() == {
        "message": "The CPF already has an active proposal; returning it",
        "proposal_id": first,
        "cpf": CPF,
        "full_name": "MARIA DA SILVA",
        "product_id": runtime.current().settings.products.insured_id,
        "status": "CREATED",
    }
    assert Proposal.select().count() == 1


@pytest.mark.parametrize(
    "status,code",
    [
        ("ANALYSIS_APPROVED", "PROPOSAL_AWAITING_DISBURSEMENT"),
        ("DISBURSEMENT_FAILED", "PROPOSAL_FINALIZED"),
        ("PENDING_ANALYSIS", "PROPOSAL_PENDING_FRAUD_ANALYSIS"),
        ("CREDIT_ANALYSIS_IN_PROGRESS", "PROPOSAL_PROCESSING_IN_PROGRESS"),
        ("CONTRACT_GENERATED", "CONTRACT_EXISTS"),
    ],
)
def test_blocking_rules_answer_409_with_the_blocking_proposal(flow, status, code):
    existing = flow.start(CPF)
    _set_status(existing, status)
    response = flow.post("/proposals/start", BODY)
    body = response.get_json()
    assert response.status_code == 409
    assert body == {
        "statusCode": 409,
        "error": "Conflict",
        "errorCode": code,
        "message": body["message"],
        "proposal_id": existing,
        "status": status,
    }


def test_signed_contract_with_recontracting_off_is_finalized(flow):
    existing = flow.start(CPF, "PARTNER_B")
    _set_status(existing, "DISBURSED")
    response = flow.post("/proposals/start", BODY, "PARTNER_B")
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "PROPOSAL_FINALIZED"
    assert response.get_json()["status"] == "DISBURSED"


def test_recontracting_with_overdue_installments_is_delinquent(flow):
    existing = flow.start("10000001171")
    _set_status(existing, "DISBURSED")
    response = flow.post("/proposals/start", {**BODY, "cpf": "10000001171"})
    assert response.status_code == 409
    assert response.get_json() == {
        "statusCode": 409,
        "error": "Conflict",
        "errorCode": "DELINQUENT_CONTRACT",
        "message": "This CPF has overdue installments; re-contracting is not allowed.",
        "longest_overdue_days": 45,
    }


def test_recontracting_without_delinquency_creates_a_new_proposal(flow):
    existing = flow.start(CPF)
    _set_status(existing, "DISBURSED")
    response = flow.post("/proposals/start", BODY)
    assert response.status_code == 201
    assert response.get_json()["proposal_id"] != existing


def test_simultaneous_starts_for_one_cpf_create_a_single_proposal(app, auth):
    import threading

    answers, barrier = [], threading.Barrier(6)

    def start():
        client = app.test_client()
        barrier.wait()
        answers.append(client.post("/v1/proposals/start", json=BODY, headers=auth()).status_code)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == [200] * 5 + [201]
    assert Proposal.select().where(Proposal.cpf == CPF).count() == 1

"""POST/GET contract: hybrid and async generation, polling, every 409, the CCB document (original and
signed versions)."""

import hashlib
import itertools
from datetime import timedelta

import freezegun
import pytest

from models import runtime
from models.db.analysis import Offer
from models.db.contracts import Contract
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.domain.clock import to_local
from models.services.contract import pdf as contract_pdf
from tests.builders import pre_accepted_proposal, with_bank_account
from tests.e2e.contract_path import awaiting_signature, history, signing_path
from tests.support.pdf_text import page_strings


@pytest.fixture
def ready(business_day):
    return with_bank_account(pre_accepted_proposal())


def post(client, headers, proposal_id, suffix="", **body):
    return client.post(f"/v1/proposals/{proposal_id}/contract{suffix}", json=body, headers=headers())


def test_hybrid_answers_201_with_the_contract_data(client, auth, drain, ready):
    response = post(client, auth, ready.id)
    assert response.status_code == 201
    body = response.json
    contract = Contract.get_by_id(body["contract_id"])
    offer = ready.offers.get().payload
    assert body == {
        "contract_id": contract.id,
        "status": "CONTRACT_GENERATED",
        "principal_amount": offer["principal_amount"],
        "interest_rate": offer["interest_rate"],
        "total_amount": offer["total_amount"],
        "installment_amount": offer["installment_amount"],
        "installments": offer["installments"],
        "first_due_date": offer["first_due_date"],
        "has_original_document": True,
        "user_redirect_url": contract.user_redirect_url,
        "unico_process_id": contract.unico_process_id,
        "digital_signature": {
            "signature_id": contract.signature_id,
            "unico_process_id": contract.unico_process_id,
            "user_redirect_url": contract.user_redirect_url,
            "status": "PENDING",
            "expires_at": "2026-03-12T00:00:00.000Z",
        },  # Wednesday 21:00 in São Paulo
        "contract_details": {
            "principal_amount": offer["principal_amount"],
            "interest_rate": offer["interest_rate"],
            "installments": offer["installments"],
            "total_amount": offer["total_amount"],
            "installment_amount": offer["installment_amount"],
            "first_due_date": offer["first_due_date"],
            "disbursement_date": "2026-03-11",
        },
    }
    assert body["user_redirect_url"] == f"http://localhost/sandbox/esign/{contract.unico_process_id}"
    assert history(ready.id)[-3:] == ["CONTRACT_GENERATION_IN_PROGRESS", "CONTRACT_GENERATED", "AWAITING_SIGNATURE"]


@pytest.mark.parametrize("suffix", ["/async", "?async=true"])
def test_async_variants_answer_202_at_once(client, auth, ready, held_outbox, suffix):
    response = post(client, auth, ready.id, suffix)
    assert response.status_code == 202
    assert response.json == {
        "async_processing": True,
        "message": "Contract generation in progress; poll status_url every 2 seconds",
        "proposal_id": ready.id,
        "status": "CONTRACT_GENERATION_IN_PROGRESS",
        "processing_started_at": response.json["processing_started_at"],
        "status_url": f"/proposals/{ready.id}/contract/status",
    }


@pytest.mark.parametrize("suffix", ["/async", "?async=true"])
def test_async_variants_answer_202_even_when_the_worker_finished_first(client, auth, drain, ready, suffix, monkeypatch):
    # Given a worker fast enough to generate the contract before the route answers
    from models.services.contract import generation

    start_contract = generation.start_contract

    def generated_before_the_answer(*args, **kwargs):
        contract = start_contract(*args, **kwargs)  # committed, its message published
        drain()
        return contract

    monkeypatch.setattr(generation, "start_contract", generated_before_the_answer)
    # When the partner asks for async generation
    response = post(client, auth, ready.id, suffix)
    # Then the answer is still the 202 acknowledgement (the spec: always 202), and polling has it
    assert (response.status_code, response.json["status"]) == (202, "CONTRACT_GENERATION_IN_PROGRESS")
    assert Contract.get(Contract.proposal == ready.id).status != "CONTRACT_GENERATION_IN_PROGRESS"
    assert client.get(f"/v1/proposals/{ready.id}/contract", headers=auth()).status_code == 200


def test_polling_answers_202_while_generating_then_200(client, auth, drain, ready, held_outbox, monkeypatch):
    post(client, auth, ready.id, "/async")
    assert client.get(f"/v1/proposals/{ready.id}/contract/status", headers=auth()).status_code == 202
    drain()
    response = client.get(f"/v1/proposals/{ready.id}/contract", headers=auth())
    contract = Contract.get(Contract.proposal == ready.id)
    assert (response.status_code, response.json) == (
        200,
        {
            "proposal_id": ready.id,
            "proposal_status": "AWAITING_SIGNATURE",
            "contract_id": contract.id,
            "contract_status": "CONTRACT_GENERATED",
            "digital_signature": {
                "signature_id": contract.signature_id,
                "status": "PENDING",
                "user_redirect_url": contract.user_redirect_url,
                "expires_at": "2026-03-12T00:00:00.000Z",
            },
        },
    )


def test_watchdog_fails_an_unfinished_generation_after_three_minutes(client, auth, drain, ready, held_outbox):
    post(client, auth, ready.id, "/async")
    OutboxMessage.delete().where(OutboxMessage.actor_name == "generate_contract").execute()  # the worker died
    with freezegun.freeze_time("2026-03-10T15:02:55Z"):  # not ticking: a slow drain must not reach 15:03
        drain()
        assert Proposal.get_by_id(ready.id).status == "CONTRACT_GENERATION_IN_PROGRESS"
    with freezegun.freeze_time("2026-03-10T15:03:01Z", tick=True):
        drain()
    assert Proposal.get_by_id(ready.id).status == "BANK_DATA_SUBMITTED"
    assert Contract.get(Contract.proposal == ready.id).status == "FAILED"


def test_terminal_status_answers_409_with_the_contract_status_body(client, auth):
    proposal = pre_accepted_proposal(status="CANCELED")
    response = client.get(f"/v1/proposals/{proposal.id}/contract", headers=auth())
    assert (response.status_code, response.json) == (
        409,
        {
            "code": "TERMINAL_PROPOSAL_STATUS",
            "message": "Proposal is in terminal status CANCELED",
            "details": {"current_status": "CANCELED"},
        },
    )


def test_polling_without_a_contract_is_404(client, auth, ready):
    response = client.get(f"/v1/proposals/{ready.id}/contract/status", headers=auth())
    assert (response.status_code, response.json["errorCode"]) == (404, "CONTRACT_NOT_FOUND")


def test_polling_an_unknown_proposal_is_404(client, auth):
    response = client.get("/v1/proposals/0f8fad5b-d9cb-469f-a165-70867728950e/contract", headers=auth())
    assert (response.status_code, response.json["errorCode"]) == (404, "PROPOSAL_NOT_FOUND")


@pytest.mark.parametrize(
    "status,code",
    [
        ("CONTRACT_GENERATION_IN_PROGRESS", "CONTRACT_GENERATION_IN_PROGRESS"),
        ("CONTRACT_GENERATED", "CONTRACT_ALREADY_GENERATED"),
        ("AWAITING_SIGNATURE", "CONTRACT_ALREADY_GENERATED"),
        ("SIGNED", "SIGNED_CONTRACT_EXISTS"),
        ("ANALYSIS_APPROVED", "SIGNED_CONTRACT_EXISTS"),
        ("DISBURSED", "PROPOSAL_FINALIZED"),
        ("SIGNATURE_FAILED", "PROPOSAL_FINALIZED"),
    ],
)
def test_post_contract_conflicts_carry_the_spec_error_code(client, auth, business_day, status, code):
    proposal = pre_accepted_proposal(status=status)
    response = post(client, auth, proposal.id)
    assert (response.status_code, response.json["errorCode"], response.json["details"]["currentStatus"]) == (
        409,
        code,
        status,
    )


def test_post_contract_conflicts_when_the_cpf_has_another_signed_contract(client, auth, ready):
    other = pre_accepted_proposal(status="SIGNED")
    response = post(client, auth, ready.id)
    assert (response.status_code, response.json["errorCode"], response.json["details"]["proposal_id"]) == (
        409,
        "CONTRACT_ACTIVE",
        other.id,
    )


def test_post_contract_before_banking_data_is_409(client, auth, business_day):
    proposal = pre_accepted_proposal()
    response = post(client, auth, proposal.id)
    assert (response.status_code, response.json["errorCode"]) == (409, "INVALID_STATUS_FOR_CONTRACT")


@pytest.mark.parametrize("before_expiry", [timedelta(seconds=1), timedelta(0)])
def test_post_contract_needs_the_selected_offer_unexpired(client, auth, ready, held_outbox, before_expiry):
    # Given the selected offer expires at expires_at, when the contract is asked one second before or at it
    expires_at = Offer.get_by_id(ready.selected_offer_id).expires_at
    with freezegun.freeze_time(expires_at - before_expiry):
        response = post(client, auth, ready.id, "/async")
    contracts = Contract.select().where(Contract.proposal == ready.id).count()
    if before_expiry:
        assert (response.status_code, contracts) == (202, 1)
        return
    # Then at the instant it is refused like pre-accept refuses it, and nothing is written
    assert (response.status_code, response.json, contracts) == (
        400,
        {
            "statusCode": 400,
            "error": "Bad Request",
            "errorCode": "OFFER_EXPIRED",
            "message": "The offer has expired; simulate or analyse again",
            "details": {"field": "selected_offer_id"},
        },
        0,
    )
    assert Proposal.get_by_id(ready.id).status == "BANK_DATA_SUBMITTED"
    assert history(ready.id)[-1] == "PRE_ACCEPTED"


def test_invalid_redirect_url_is_400(client, auth, ready):
    response = post(client, auth, ready.id, signature_redirect_url="not a url")
    assert (response.status_code, response.json["details"]["field"]) == (400, "signature_redirect_url")


def test_document_is_the_stored_pdf_for_the_owner_only(client, auth, drain, ready):
    post(client, auth, ready.id)
    response = client.get(f"/v1/proposals/{ready.id}/contract/document", headers=auth())
    assert (response.status_code, response.mimetype, response.data[:5]) == (200, "application/pdf", b"%PDF-")
    assert len(response.data) > 4000  # parties, amounts and the 48-row schedule
    assert client.get(f"/v1/proposals/{ready.id}/contract/document", headers=auth("PARTNER_B")).status_code == 403


def test_document_before_generation_is_404(client, auth, ready):
    response = client.get(f"/v1/proposals/{ready.id}/contract/document", headers=auth())
    assert (response.status_code, response.json["errorCode"]) == (404, "CONTRACT_DOCUMENT_NOT_FOUND")


def test_terms_carry_schedule_cet_disbursement_and_consent(client, auth, drain, ready):
    body = post(client, auth, ready.id).json
    terms = Contract.get_by_id(body["contract_id"]).terms
    assert len(terms["schedule"]) == 48 and terms["schedule"][-1]["balance"] == "0.00"
    assert terms["schedule"][0]["installment"] == body["installment_amount"]
    assert terms["rates"]["cet_annual_percent"] and terms["cet_worksheet"]["components"]
    assert terms["disbursement"]["destination"]["bank_code"] == "341"
    assert terms["consent"]["ip"] == "203.0.113.7"
    assert terms["ccb_number"] == Contract.get_by_id(body["contract_id"]).issuer_application_id


def _document(client, auth, proposal_id, query=""):
    return client.get(f"/v1/proposals/{proposal_id}/contract/document{query}", headers=auth())


def test_before_signing_the_document_is_the_original(client, auth, drain, ready):
    body = post(client, auth, ready.id).json
    stored = contract_pdf.path_of(
        Contract.get_by_id(body["contract_id"]).pdf_path, contract_settings=runtime.current().settings.contract
    ).read_bytes()
    for query in ("", "?version=original"):
        response = _document(client, auth, ready.id, query)
        assert (response.status_code, response.headers["X-Contract-Version"], response.data) == (
            200,
            "original",
            stored,
        )
    assert Contract.get_by_id(body["contract_id"]).original_sha256 == hashlib.sha256(stored).hexdigest()


def test_once_signed_the_document_ends_with_the_evidence_recorded_at_signing(client, auth, drain, business_day):
    # Given a contract awaiting signature and its original as served then
    proposal, contract = awaiting_signature(client, auth, drain)
    original = _document(client, auth, proposal.id).data

    # When the customer signs and every check passes
    client.post(signing_path(contract), json={})
    drain()

    # Then the document is the signed version, whose last page prints the evidence recorded at signing
    response = _document(client, auth, proposal.id)
    assert (response.status_code, response.headers["X-Contract-Version"]) == (200, "signed")
    row = Contract.get_by_id(contract["contract_id"])
    evidence = page_strings(response.data)[-1]
    recorded = dict(itertools.pairwise(evidence))
    assert recorded["Provedor de assinatura eletrônica"] == "Simulador de assinatura dos testes (sem validade jurídica)"
    assert recorded["Identificador do processo de assinatura"] == row.unico_process_id
    assert recorded["Resultado do processo"] == "PROCESS_RESULT_OK (processo concluído)"
    assert recorded["Autenticação de identidade"] == "AUTHENTICATION_RESULT_POSITIVE (identidade confirmada)"
    assert recorded["Prova de vida"] == "LIVENESS_RESULT_LIVE (pessoa presente confirmada)"
    assert recorded["Análise antifraude"] == "TRUST_RESULT_NO (sem indício de fraude)"
    assert recorded["Data e hora da assinatura (data de emissão)"] == (
        to_local(row.signed_at).strftime("%d/%m/%Y às %H:%M:%S") + " (horário de Brasília)"
    )
    assert recorded["SHA-256 do documento não assinado"] == hashlib.sha256(original).hexdigest() == row.original_sha256
    assert row.signature_evidence["results"] == row.signature_result
    # and the unsigned original is still served, unchanged
    again = _document(client, auth, proposal.id, "?version=original")
    assert (again.headers["X-Contract-Version"], again.data) == ("original", original)


def test_a_failed_signature_leaves_only_the_original(client, auth, drain, business_day):
    proposal, contract = awaiting_signature(client, auth, drain)
    client.post(signing_path(contract), json={"liveness_result": "LIVENESS_RESULT_SPOOF"})
    drain()
    assert Contract.get_by_id(contract["contract_id"]).signed_pdf_path is None
    assert _document(client, auth, proposal.id).headers["X-Contract-Version"] == "original"


@pytest.mark.parametrize("version", ["signed", "ORIGINAL", ""])
def test_any_other_version_is_400_in_the_error_body(client, auth, drain, ready, version):
    post(client, auth, ready.id)
    response = _document(client, auth, ready.id, f"?version={version}")
    assert (
        response.status_code,
        response.json["statusCode"],
        response.json["error"],
        response.json["errorCode"],
        response.json["details"]["field"],
    ) == (400, 400, "Bad Request", "VALIDATION_ERROR", "version")


def test_a_signed_version_not_stored_at_signing_is_written_on_first_request(
    client, auth, drain, business_day, monkeypatch
):
    # Given a signature applied while the documents directory refused the signed version
    proposal, contract = awaiting_signature(client, auth, drain)
    store = contract_pdf.store

    def full_disk(content, proposal_id, contract_id, *, contract_settings, signed=False):
        if signed:
            raise OSError(28, "No space left on device")
        return store(content, proposal_id, contract_id, contract_settings=contract_settings, signed=signed)

    monkeypatch.setattr(contract_pdf, "store", full_disk)
    client.post(signing_path(contract), json={})
    drain()
    row = Contract.get_by_id(contract["contract_id"])
    assert (Proposal.get_by_id(proposal.id).status != "AWAITING_SIGNATURE", row.signed_pdf_path) == (True, None)
    monkeypatch.setattr(contract_pdf, "store", store)

    # When the document is asked for, then it is the signed version, built from the recorded evidence
    response = _document(client, auth, proposal.id)
    assert response.headers["X-Contract-Version"] == "signed"
    assert row.signature_evidence["process_id"] in page_strings(response.data)[-1]
    assert Contract.get_by_id(row.id).signed_pdf_path is not None


def test_has_original_document_says_the_unsigned_original_is_stored(client, auth, drain, ready):
    """Spec, Contract data: "has_original_document | boolean". Fixed by the product (README, "Choices
    where the spec is open"): the 201 comes once the unsigned original is stored, so it is true, and
    the original is there to download."""
    body = post(client, auth, ready.id).json
    assert body["has_original_document"] is True
    original = client.get(f"/v1/proposals/{ready.id}/contract/document?version=original", headers=auth())
    assert (original.status_code, original.headers["X-Contract-Version"]) == (200, "original")
    assert original.data.startswith(b"%PDF")


def test_the_signed_version_reuses_the_pages_its_original_composed(client, auth, drain, business_day, monkeypatch):
    from models.services.contract import pdf

    composed, compose = [], pdf._compose_body
    monkeypatch.setattr(pdf, "_bodies", pdf._RecentBodies())
    monkeypatch.setattr(
        pdf, "_compose_body", lambda terms, values: composed.append(terms["contract_id"]) or compose(terms, values)
    )
    # The terms stored on the contract (read back for the signed version) are the ones generation
    # rendered the original from, so one process composes the pages once.
    proposal, contract = awaiting_signature(client, auth, drain)
    client.post(signing_path(contract), json={})
    drain()
    assert _document(client, auth, proposal.id).headers["X-Contract-Version"] == "signed"
    assert composed == [contract["contract_id"]]

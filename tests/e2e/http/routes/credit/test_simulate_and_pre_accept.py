"""POST simulate and POST pre-accept."""

from datetime import timedelta

import pytest

from models import runtime
from models.db.analysis import Offer
from models.db.proposals import Proposal


def test_simulation_by_installments_returns_the_largest_amount_for_the_term(flow):
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/simulate", {"installments": 24})
    body = response.get_json()
    assert response.status_code == 200
    assert {k: v for k, v in body.items() if k != "offers"} == {
        "simulation_mode": "BY_INSTALLMENTS",
        "proposal_id": proposal_id,
        "product_id": runtime.current().settings.products.standard_id,
        "product_name": "Consignado Privado",
        "total_offers": 1,
        "message": "Simulation by term returned 1 offer(s); earlier offers were replaced",
    }
    offer = body["offers"][0]
    assert (offer["installments"], offer["installment_amount"] <= 1000, offer["is_available"]) == (24, True, True)


def test_simulation_by_amount_returns_term_options_and_supersedes_earlier_offers(flow):
    proposal_id, analysis = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/simulate", {"loan_amount": 5000, "insured": True})
    body = response.get_json()
    assert (body["simulation_mode"], body["product_id"]) == (
        "BY_LOAN_AMOUNT",
        runtime.current().settings.products.insured_id,
    )
    assert body["total_offers"] == len(body["offers"]) > 1
    assert all(o["principal_amount"] == 5000.0 and o["offer_type"] == "INSURED" for o in body["offers"])
    assert Offer.get_by_id(analysis["offer"]["id"]).superseded_at is not None
    assert Offer.select().where(Offer.proposal == proposal_id, Offer.superseded_at.is_null()).count() == len(
        body["offers"]
    )


def test_insured_is_ignored_for_a_partner_without_insurance(flow):
    proposal_id, _ = flow.with_offers(partner="PARTNER_B")
    body = flow.post(
        f"/proposals/{proposal_id}/simulate", {"installments": 36, "insured": True}, "PARTNER_B"
    ).get_json()
    assert (
        body["offers"][0]["offer_type"] == "STANDARD"
        and body["product_id"] == runtime.current().settings.products.standard_id
    )


@pytest.mark.parametrize(
    "payload,field",
    [
        ({}, "installments"),
        ({"installments": 12, "loan_amount": 1000}, "loan_amount"),
        ({"installments": "12"}, "installments"),
    ],
)
def test_exactly_one_parameter_is_required(flow, payload, field):
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/simulate", payload)
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == field


@pytest.mark.parametrize(
    "payload,field", [({"installments": 120}, "installments"), ({"loan_amount": 100}, "loan_amount")]
)
def test_parameters_outside_the_limits_are_400(flow, payload, field):
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/simulate", payload)
    assert response.status_code == 400
    assert (response.get_json()["errorCode"], response.get_json()["details"]["field"]) == (
        "INVALID_SIMULATION_PARAMETERS",
        field,
    )


def test_amount_the_margin_cannot_carry_is_422(flow):
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/simulate", {"loan_amount": 49000})
    assert response.status_code == 422
    assert response.get_json()["errorCode"] == "INSUFFICIENT_MARGIN"
    assert response.get_json()["details"]["availableMargin"] == 1000.0


def test_simulation_before_analysis_is_409(flow):
    response = flow.post(f"/proposals/{flow.validated()}/simulate", {"installments": 24})
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "INVALID_STATUS_FOR_SIMULATION"


def test_simulation_of_a_missing_proposal_is_404(flow):
    response = flow.post("/proposals/00000000-0000-4000-8000-000000000000/simulate", {"installments": 24})
    assert response.status_code == 404


def test_pre_accept_moves_through_offer_selected_to_pre_accepted(flow):
    proposal_id, analysis = flow.with_offers()
    offer = analysis["offer"]
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": offer["id"]})
    body = response.get_json()
    assert response.status_code == 200
    assert body == {
        "message": "Offer pre-accepted; send the banking data next",
        "proposal_id": proposal_id,
        "status": "PRE_ACCEPTED",
        "selected_offer": {
            "id": offer["id"],
            "principal_amount": offer["principal_amount"],
            "installments": offer["installments"],
            "installment_amount": offer["installment_amount"],
        },
        "pre_accepted_at": body["pre_accepted_at"],
    }
    assert Proposal.get_by_id(proposal_id).selected_offer_id == offer["id"]


def test_pre_accepted_offer_survives_a_later_simulation(flow):
    proposal_id, analysis = flow.with_offers()
    flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": analysis["offer"]["id"]})
    flow.post(f"/proposals/{proposal_id}/simulate", {"installments": 24})
    again = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": analysis["offer"]["id"]})
    assert again.status_code == 200


@pytest.mark.parametrize("offer_id,code", [("00000000-0000-4000-8000-000000000000", "OFFER_NOT_FOUND")])
def test_unknown_offer_is_400_naming_the_field(flow, offer_id, code):
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": offer_id})
    assert response.status_code == 400
    assert response.get_json() == {
        "statusCode": 400,
        "error": "Bad Request",
        "errorCode": code,
        "message": "selected_offer_id is not an offer of this proposal",
        "details": {"field": "selected_offer_id"},
    }


def test_offer_of_another_proposal_is_400(flow):
    _, other = flow.with_offers("10000000876")
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": other["offer"]["id"]})
    assert response.get_json()["errorCode"] == "OFFER_NOT_FOUND"


def test_superseded_offer_is_400_not_available(flow):
    proposal_id, analysis = flow.with_offers()
    flow.post(f"/proposals/{proposal_id}/simulate", {"installments": 24})
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": analysis["offer"]["id"]})
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "OFFER_NOT_AVAILABLE"


def test_expired_offer_is_400(flow, advance):
    proposal_id, analysis = flow.with_offers()
    advance(timedelta(days=7))
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": analysis["offer"]["id"]})
    assert response.status_code == 400
    assert (response.get_json()["errorCode"], response.get_json()["details"]) == (
        "OFFER_EXPIRED",
        {"field": "selected_offer_id"},
    )


def test_malformed_offer_id_is_400(flow):
    proposal_id, _ = flow.with_offers()
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": "abc"})
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "selected_offer_id"


def test_pre_accept_before_offers_is_409_invalid_status(flow):
    response = flow.post(
        f"/proposals/{flow.validated()}/pre-accept", {"selected_offer_id": "00000000-0000-4000-8000-000000000000"}
    )
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "INVALID_STATUS_FOR_PREACCEPT"


def test_pre_accept_after_signature_is_409_signed_contract_exists(flow):
    proposal_id, analysis = flow.with_offers()
    Proposal.update(status="SIGNED").where(Proposal.id == proposal_id).execute()
    response = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": analysis["offer"]["id"]})
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "SIGNED_CONTRACT_EXISTS"

"""The whole credit path: start, contact, token, hybrid analysis, simulate both ways, pre-accept."""

from models.db.proposals import StatusChange
from models.db.webhooks import WebhookDelivery
from tests.builders import path_to


def test_walks_from_start_to_pre_accepted_emitting_an_event_per_status_change(flow):
    # Given a validated proposal of a partner with insurance
    proposal_id = flow.validated()
    # When the hybrid analysis runs
    analysis = flow.analyse(proposal_id)
    # Then it answers 201 with both offers
    assert analysis.status_code == 201
    body = analysis.get_json()
    assert body["status"] == "OFFERS_RECEIVED" and body["approved"] is True
    assert body["offer"]["offer_type"] == "STANDARD" and body["insuredOffer"]["offer_type"] == "INSURED"
    # When simulating by term and by amount
    by_term = flow.post(f"/proposals/{proposal_id}/simulate", {"installments": 24})
    by_amount = flow.post(f"/proposals/{proposal_id}/simulate", {"loan_amount": 5000, "insured": True})
    assert by_term.status_code == 200, by_term.get_json()
    assert by_amount.status_code == 200, by_amount.get_json()
    assert by_term.get_json()["simulation_mode"] == "BY_INSTALLMENTS"
    assert by_amount.get_json()["simulation_mode"] == "BY_LOAN_AMOUNT"
    chosen = by_amount.get_json()["offers"][0]
    # And pre-accepting an offer of the latest simulation
    accepted = flow.post(f"/proposals/{proposal_id}/pre-accept", {"selected_offer_id": chosen["id"]})
    # Then the proposal is PRE_ACCEPTED
    assert accepted.status_code == 200, accepted.get_json()
    assert accepted.get_json()["status"] == "PRE_ACCEPTED"
    # And every status change produced its webhook delivery (the creation is history, not a change)
    flow.drain()
    statuses = [
        c.new_status
        for c in StatusChange.select().where(StatusChange.proposal == proposal_id).order_by(StatusChange.sequence)
    ]
    assert statuses == ["CREATED", *path_to("PRE_ACCEPTED")]
    deliveries = (
        WebhookDelivery.select().where(WebhookDelivery.proposal_id == proposal_id).order_by(WebhookDelivery.sequence)
    )
    assert [d.payload["status_change"]["new_status"] for d in deliveries] == statuses[1:]

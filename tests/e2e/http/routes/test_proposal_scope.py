"""Every route on one proposal answers the same 404 for an unknown id and the same 403 for another
origin's proposal, body for body, and changes nothing in the other origin's proposal."""

import pytest

from models.db.proposals import Proposal
from tests.builders import BANK_ACCOUNT, pre_accepted_proposal

UNKNOWN_ID = "0f8fad5b-d9cb-469f-a165-70867728950e"
CONSENT = {
    "ip": "203.0.113.10",
    "geolocation": {"latitude": -23.5505, "longitude": -46.6333},
    "document_text": "I authorise the payroll margin query and the credit analysis.",
    "channel": "web",
}
ACCOUNT = BANK_ACCOUNT
ROUTES = [
    ("get", "", None),
    ("get", "/analysis-data", None),
    ("get", "/message-timeline", None),
    ("post", "/contact", {"email": "a@example.com", "phone": "+5511987654321"}),
    ("post", "/contact/validate-token", {"token": "123456", "phone": "+5511987654321"}),
    ("post", "/contact/resend-token", None),
    ("post", "/contact/resend-token/whatsapp", None),
    ("post", "/credit-analysis", CONSENT),
    ("post", "/credit-analysis/async", CONSENT),
    ("post", "/credit-analysis?async=true", CONSENT),
    ("get", "/credit-analysis", None),
    ("post", "/credit-analysis/retry", None),
    ("post", "/credit-analysis/retry/async", None),
    ("post", "/simulate", {"installments": 24}),
    ("post", "/pre-accept", {"selected_offer_id": "00000000-0000-4000-8000-000000000000"}),
    ("post", "/banking-data", ACCOUNT),
    ("post", "/contract", {}),
    ("post", "/contract/async", {}),
    ("post", "/contract?async=true", {}),
    ("get", "/contract", None),
    ("get", "/contract/status", None),
    ("get", "/contract/document", None),
    ("post", "/cancel", None),
]
NOT_FOUND = {
    "statusCode": 404,
    "message": "Proposal not found",
    "error": "Not Found",
    "errorCode": "PROPOSAL_NOT_FOUND",
}
FORBIDDEN = {
    "statusCode": 403,
    "message": "This token is not permitted to access this proposal",
    "error": "Forbidden",
    "errorCode": "FORBIDDEN",
}


def _call(client, headers, method, url, body):
    if method == "get":
        return client.get(url, headers=headers)
    return client.post(url, json=body, headers=headers) if body is not None else client.post(url, headers=headers)


@pytest.mark.parametrize("method,suffix,body", ROUTES)
def test_an_unknown_proposal_is_404(client, auth, method, suffix, body):
    response = _call(client, auth("PARTNER_A"), method, f"/v1/proposals/{UNKNOWN_ID}{suffix}", body)
    assert (response.status_code, response.get_json()) == (404, NOT_FOUND)


@pytest.mark.parametrize("method,suffix,body", ROUTES)
def test_another_origins_proposal_is_403_and_left_unchanged(client, auth, method, suffix, body):
    proposal = pre_accepted_proposal(origin="PARTNER_A")
    response = _call(client, auth("PARTNER_B"), method, f"/v1/proposals/{proposal.id}{suffix}", body)
    assert (response.status_code, response.get_json()) == (403, FORBIDDEN)
    after = Proposal.get_by_id(proposal.id)
    assert (after.status, after.status_sequence, after.updated_at) == (
        proposal.status,
        proposal.status_sequence,
        proposal.updated_at,
    )

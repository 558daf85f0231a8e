"""Every credit-path route answers 403 for a proposal of another origin."""
import pytest

from .conftest import CONSENT

ROUTES = [("post", "/contact", {"email": "a@example.com", "phone": "+5511987654321"}),
          ("post", "/contact/validate-token", {"token": "123456", "phone": "+5511987654321"}),
          ("post", "/contact/resend-token", None), ("post", "/contact/resend-token/whatsapp", None),
          ("post", "/credit-analysis", CONSENT), ("post", "/credit-analysis/async", CONSENT),
          ("post", "/credit-analysis?async=true", CONSENT), ("get", "/credit-analysis", None),
          ("post", "/credit-analysis/retry", None), ("post", "/credit-analysis/retry/async", None),
          ("post", "/simulate", {"installments": 24}),
          ("post", "/pre-accept", {"selected_offer_id": "00000000-0000-4000-8000-000000000000"})]


@pytest.mark.parametrize("method,suffix,body", ROUTES)
def test_another_origins_proposal_is_403(flow, method, suffix, body):
    proposal_id = flow.start()
    url = f"/proposals/{proposal_id}{suffix}"
    response = flow.get(url, "PARTNER_B") if method == "get" else flow.post(url, body, "PARTNER_B")
    assert response.status_code == 403
    assert response.get_json()["errorCode"] == "FORBIDDEN"


def test_sandbox_messages_need_a_phone(flow):
    response = flow.get("/sandbox/messages")
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "phone"

"""Contact, SMS token validation and resends (SMS and messaging app)."""

from datetime import timedelta

import pytest

from models.db.contact import ContactToken, MessageSend
from models.db.proposals import Proposal


def test_contact_sends_a_token_expiring_in_five_minutes(flow, business_clock):
    proposal_id = flow.start()
    response = flow.post(f"/proposals/{proposal_id}/contact", {"email": "Maria@Example.com", "phone": "+5511987654321"})
    assert response.status_code == 201
    body = response.get_json()
    assert body == {
        "message": "Verification code sent by SMS",
        "phone": "+5511987654321",
        "expires_at": body["expires_at"],
    }
    token = ContactToken.get(ContactToken.proposal == proposal_id)
    assert token.expires_at - token.created_at == timedelta(minutes=5)
    assert Proposal.get_by_id(proposal_id).status == "TOKEN_SENT"


def test_the_email_is_stored_lower_cased_and_found_in_any_case(flow):
    proposal_id = flow.start()
    flow.post(f"/proposals/{proposal_id}/contact", {"email": "Maria@Example.COM", "phone": "+5511987654321"})
    assert Proposal.get_by_id(proposal_id).email == "maria@example.com"
    listing = flow.get("/proposals?email=MARIA@example").get_json()
    assert [item["id"] for item in listing["data"]] == [proposal_id]


def test_the_code_is_stored_hashed_and_masked_in_the_message_timeline(flow):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    code = flow.code(phone)
    send = MessageSend.get(MessageSend.proposal == proposal_id)
    assert code not in send.text and "******" in send.text
    assert (send.channel, send.delivery_status) == ("sms", "SENT")
    assert code not in ContactToken.get(ContactToken.proposal == proposal_id).token_hash


@pytest.mark.parametrize(
    "field,value",
    [("email", "not-an-email"), ("phone", "11987654321"), ("phone", "+551187654321"), ("phone", "+5511887654321")],
)
def test_invalid_email_or_phone_is_400(flow, field, value):
    proposal_id = flow.start()
    body = {"email": "maria@example.com", "phone": "+5511987654321", field: value}
    response = flow.post(f"/proposals/{proposal_id}/contact", body)
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == field


def test_phone_used_in_another_proposal_is_409_without_error_code(flow):
    flow.contact(flow.start("52998224725"), phone="+5511987654321")
    other = flow.start("10000000876")
    response = flow.post(f"/proposals/{other}/contact", {"email": "joao@example.com", "phone": "+5511987654321"})
    assert response.status_code == 409
    assert response.get_json() == {
        "statusCode": 409,
        "error": "Conflict",
        "message": "This phone is already used in another proposal",
        "details": {"field": "phone"},
    }


def test_correct_token_validates_the_proposal(flow):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    response = flow.post(
        f"/proposals/{proposal_id}/contact/validate-token", {"token": flow.code(phone), "phone": phone}
    )
    assert response.status_code == 200
    body = response.get_json()
    assert body == {
        "message": "Token validated",
        "proposal_id": proposal_id,
        "status": "TOKEN_VALIDATED",
        "validated_at": body["validated_at"],
    }


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10**6:06d}"


def test_wrong_token_is_invalid_token_with_remaining_attempts(flow):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    response = flow.post(
        f"/proposals/{proposal_id}/contact/validate-token", {"token": _wrong(flow.code(phone)), "phone": phone}
    )
    assert response.status_code == 400
    assert response.get_json() == {
        "statusCode": 400,
        "error": "Bad Request",
        "errorCode": "INVALID_TOKEN",
        "message": "Invalid code",
        "details": {"field": "token", "remaining_attempts": 4},
    }


def test_expired_token_is_token_expired(flow, advance):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    code = flow.code(phone)
    advance(timedelta(minutes=5))
    response = flow.post(f"/proposals/{proposal_id}/contact/validate-token", {"token": code, "phone": phone})
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "TOKEN_EXPIRED"


def test_after_five_wrong_attempts_even_the_right_code_is_refused(flow):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    code = flow.code(phone)
    for _ in range(5):
        flow.post(f"/proposals/{proposal_id}/contact/validate-token", {"token": _wrong(code), "phone": phone})
    response = flow.post(f"/proposals/{proposal_id}/contact/validate-token", {"token": code, "phone": phone})
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "TOO_MANY_ATTEMPTS"


def test_token_for_another_phone_is_phone_mismatch(flow):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    response = flow.post(
        f"/proposals/{proposal_id}/contact/validate-token", {"token": flow.code(phone), "phone": "+5521999999999"}
    )
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "PHONE_MISMATCH"


def test_resend_within_the_cooldown_is_409(flow):
    proposal_id = flow.start()
    flow.contact(proposal_id)
    response = flow.post(f"/proposals/{proposal_id}/contact/resend-token")
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "RESEND_COOLDOWN"
    assert response.get_json()["details"] == {"retry_after_seconds": 30}


@pytest.mark.parametrize("suffix,channel", [("", "sms"), ("/whatsapp", "whatsapp")])
def test_resend_after_the_cooldown_sends_a_new_code_and_voids_the_old(flow, advance, suffix, channel):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    old = flow.code(phone)
    advance(timedelta(seconds=31))
    response = flow.post(f"/proposals/{proposal_id}/contact/resend-token{suffix}")
    assert response.status_code == 200
    body = response.get_json()
    assert body == {"message": body["message"], "phone": phone, "channel": channel, "expires_at": body["expires_at"]}
    newest = flow.get(f"/sandbox/messages?phone=%2B{phone[1:]}").get_json()[0]
    assert newest["channel"] == channel
    if newest["token"] != old:
        refused = flow.post(f"/proposals/{proposal_id}/contact/validate-token", {"token": old, "phone": phone})
        assert refused.get_json()["errorCode"] == "INVALID_TOKEN"
    accepted = flow.post(f"/proposals/{proposal_id}/contact/validate-token", {"token": newest["token"], "phone": phone})
    assert accepted.status_code == 200
    assert [m.channel for m in MessageSend.select().order_by(MessageSend.id)] == ["sms", channel]


def test_resend_before_contact_is_409(flow):
    response = flow.post(f"/proposals/{flow.start()}/contact/resend-token")
    assert response.status_code == 409
    assert response.get_json()["errorCode"] == "INVALID_STATUS_FOR_RESEND"


def test_sandbox_messages_are_only_visible_to_the_owning_partner(flow):
    proposal_id = flow.start()
    phone = flow.contact(proposal_id)
    assert flow.get(f"/sandbox/messages?phone=%2B{phone[1:]}", "PARTNER_B").get_json() == []
    mine = flow.get(f"/sandbox/messages?phone=%2B{phone[1:]}").get_json()
    assert len(mine) == 1 and set(mine[0]) == {"proposal_id", "channel", "text", "token", "sent_at"}
    assert mine[0]["proposal_id"] == proposal_id
    assert mine[0]["token"] in mine[0]["text"]


def test_sandbox_messages_need_a_phone(flow):
    response = flow.get("/sandbox/messages")
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "phone"

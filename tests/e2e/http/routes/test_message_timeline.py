"""GET /v1/proposals/{id}/message-timeline: each send with channel, time and delivery status."""

from datetime import timedelta

from tests import builders as f


def url(proposal_id):
    return f"/v1/proposals/{proposal_id}/message-timeline"


def test_sends_in_order_without_their_text(client, auth):
    # Given an SMS, a messaging-app resend that failed and an email
    p = f.proposal(path=("TOKEN_SENT",))
    sms = f.message(p, text="Your code is 482913", sent_at=f.T0)
    wa = f.message(
        p,
        channel="whatsapp",
        text="Code 771205",
        delivery_status="FAILED",
        provider_message_id=None,
        error="recipient not on the app",
        sent_at=f.T0 + timedelta(minutes=1),
    )
    mail = f.message(
        p,
        channel="email",
        recipient="maria@example.com",
        purpose="contract",
        text="Your contract",
        provider_message_id="mail-9",
        sent_at=f.T0 + timedelta(minutes=2),
    )
    # When reading the timeline
    response = client.get(url(p.id), headers=auth())
    # Then each send, oldest first, with channel, time and status
    assert response.status_code == 200
    assert response.get_json() == {
        "proposal_id": p.id,
        "total": 3,
        "messages": [
            {
                "id": sms.id,
                "channel": "sms",
                "purpose": "token",
                "recipient": "+5511987654321",
                "sent_at": "2026-05-11T15:00:00.000Z",
                "delivery_status": "SENT",
                "provider_message_id": "sms-1",
                "error": None,
            },
            {
                "id": wa.id,
                "channel": "whatsapp",
                "purpose": "token",
                "recipient": "+5511987654321",
                "sent_at": "2026-05-11T15:01:00.000Z",
                "delivery_status": "FAILED",
                "provider_message_id": None,
                "error": "recipient not on the app",
            },
            {
                "id": mail.id,
                "channel": "email",
                "purpose": "contract",
                "recipient": "maria@example.com",
                "sent_at": "2026-05-11T15:02:00.000Z",
                "delivery_status": "SENT",
                "provider_message_id": "mail-9",
                "error": None,
            },
        ],
    }
    # And never the token, even if a copy of the text held it
    assert b"482913" not in response.data and b"771205" not in response.data


def test_no_messages(client, auth):
    p = f.proposal()
    assert client.get(url(p.id), headers=auth()).get_json() == {"proposal_id": p.id, "total": 0, "messages": []}


def test_another_origins_proposal_is_403(client, auth):
    p = f.proposal(origin="PARTNER_B")
    f.message(p)
    response = client.get(url(p.id), headers=auth("PARTNER_A"))
    assert response.status_code == 403 and b"sms-1" not in response.data


def test_unknown_proposal_is_404(client, auth):
    assert client.get(url("00000000-0000-4000-8000-00000000abcd"), headers=auth()).status_code == 404

"""Through the real routes: the request id reaches the actors each request causes, and no CPF,
SMS code, token, secret or account number appears in any log line of the journey."""

from tests.builders import BANK_ACCOUNT, pre_accepted_proposal
from tests.support.log_capture import captured_logs

CPF = "52998224725"
PHONE = "+5511976543210"
ACCOUNT = BANK_ACCOUNT


def _start_and_contact(client, auth, drain):
    start = client.post(
        "/v1/proposals/start",
        headers={**auth(), "X-Request-Id": "req-start-01"},
        json={"cpf": CPF, "full_name": "Ana Souza", "birth_date": "1985-03-10"},
    )
    drain()
    proposal_id = start.get_json()["proposal_id"]
    client.post(
        f"/v1/proposals/{proposal_id}/contact",
        headers={**auth(), "X-Request-Id": "req-contact-02"},
        json={"email": "ana@example.com", "phone": PHONE},
    )
    drain()
    return proposal_id


def test_each_request_id_reaches_the_actor_lines_it_caused(client, auth, drain):
    with captured_logs() as handler:
        proposal_id = _start_and_contact(client, auth, drain)
        sms_code = client.get(f"/v1/sandbox/messages?phone=%2B{PHONE[1:]}", headers=auth()).get_json()[0]["token"]
        client.post(
            f"/v1/proposals/{proposal_id}/contact/validate-token",
            headers={**auth(), "X-Request-Id": "req-validate-03"},
            json={"token": sms_code, "phone": PHONE},
        )
        drain()
    actor_lines = [e for e in handler.entries() if e.get("actor") and e.get("proposal_id", proposal_id) == proposal_id]
    by_request = {}
    for entry in actor_lines:
        by_request.setdefault(entry.get("request_id"), set()).add(entry["actor"])
    # The contact and the validation each caused a status event (the start's creation is history,
    # not an event); each event's actor lines carry its own request's id
    assert set(by_request) == {"req-contact-02", "req-validate-03"}
    assert "deliver_status_change" in by_request["req-contact-02"]
    assert "deliver_status_change" in by_request["req-validate-03"]


def test_no_sensitive_value_in_any_log_line_of_the_journey(client, auth, drain, token_for):
    with captured_logs() as handler:
        token = client.post(
            "/oauth2/token",
            data={
                "grant_type": "client_credentials",
                "client_id": "sandbox-partner-a",
                "client_secret": "sandbox-secret-a",
            },
        ).get_json()["access_token"]
        proposal_id = _start_and_contact(client, auth, drain)
        messages = client.get(f"/v1/sandbox/messages?phone=%2B{PHONE[1:]}", headers=auth()).get_json()
        sms_code = messages[0]["token"]
        client.post(
            f"/v1/proposals/{proposal_id}/contact/validate-token",
            headers=auth(),
            json={"token": sms_code, "phone": PHONE},
        )
        banked = pre_accepted_proposal(cpf="11144477735")
        client.post(f"/v1/proposals/{banked.id}/banking-data", headers=auth(), json=ACCOUNT)
        drain()
    assert len(handler.lines) > 10  # the journey did log: access lines, actor lines
    secrets = {
        "cpf": CPF,
        "other cpf": "11144477735",
        "sms code": sms_code,
        "access token": token,
        "partner token": token_for("PARTNER_A"),
        "client secret": "sandbox-secret-a",
        "account": "567890",
    }
    leaks = {name: line for line in handler.lines for name, value in secrets.items() if value in line}
    assert leaks == {}

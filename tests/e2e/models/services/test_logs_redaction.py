"""A request's log lines carry no secret and no token (the formatter itself:
tests/unit/models/services/test_logs_redaction.py)."""

from tests.support.log_capture import captured_logs

SECRET = "sandbox-secret-a"


def test_token_route_logs_no_secret_and_no_token(client):
    # When a partner asks for a token with its secret, the whole request's log lines stay clean
    with captured_logs() as handler:
        response = client.post(
            "/oauth2/token",
            data={"grant_type": "client_credentials", "client_id": "sandbox-partner-a", "client_secret": SECRET},
        )
    token = response.get_json().get("access_token", "")
    assert response.status_code == 200 and token
    for line in handler.lines:
        assert SECRET not in line and token not in line
    assert any('"route": "/oauth2/token"' in line for line in handler.lines)

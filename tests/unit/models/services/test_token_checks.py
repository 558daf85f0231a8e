"""Bearer tokens: the signature is checked once per process and token; the claims every time."""

from __future__ import annotations

import pytest
from freezegun import freeze_time

from models.services.partners.tokens import InvalidToken, issue_token, verify_token
from models.settings import load_settings

SETTINGS = load_settings("test", environ={})
ROTATED = load_settings("test", environ={}, overrides={"jwt_signing_key": "a-rotated-signing-key-0123456789abcdef"})


def _token(settings=SETTINGS) -> str:
    return issue_token(settings, origin="PARTNER_A", client_id="client-a", credential_id=7, generation=2)[
        "access_token"
    ]


def test_a_token_verified_again_is_still_held_to_its_expiry():
    with freeze_time("2026-11-21T10:00:00Z"):
        token = _token()
        assert verify_token(SETTINGS, token).origin == "PARTNER_A"
    with freeze_time("2026-11-21T11:00:29Z"):  # within the leeway
        assert verify_token(SETTINGS, token).credential_id == 7
    with freeze_time("2026-11-21T11:00:30Z"), pytest.raises(InvalidToken):
        verify_token(SETTINGS, token)


def test_a_token_checked_under_one_key_is_refused_under_another():
    token = _token()
    assert verify_token(SETTINGS, token).generation == 2
    with pytest.raises(InvalidToken):
        verify_token(ROTATED, token)
    assert verify_token(ROTATED, _token(ROTATED)).client_id == "client-a"


def test_a_refused_token_stays_refused_and_a_good_one_of_another_environment_too():
    token = _token()
    header, payload, signature = token.split(".")
    forged = f"{header}.{payload}.{signature[:-2]}{'AA' if not signature.endswith('AA') else 'BB'}"
    for _ in range(2):
        with pytest.raises(InvalidToken):
            verify_token(SETTINGS, forged)
    production = load_settings("test", environ={}, overrides={"credential_environment": "production"})
    assert verify_token(SETTINGS, token).environment == "staging"
    with pytest.raises(InvalidToken):  # the same signed token, checked against another environment
        verify_token(production, token)

"""No CPF, token, secret or account number in clear in any log line, whatever shape it arrives in.
(The token route's own lines: tests/e2e/models/services/test_logs_redaction.py.)"""

import json
import logging

import pytest

from models.services.platform.logs import JsonFormatter, redact

CPF = "52998224725"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzYW5kYm94LXBhcnRuZXItYSJ9.c2lnbmF0dXJlLXZhbHVl"
SECRET = "sandbox-secret-a"
ACCOUNT = "00123456"
SENSITIVE = (CPF, "529.982.247-25", JWT, SECRET, ACCOUNT, "7c9e6679-key-pix", "c2VjcmV0OnBhc3M=", "987654")


def _line(message, *args, exc_info=None) -> str:
    record = logging.LogRecord("svc", logging.INFO, __file__, 1, message, args, exc_info)
    return JsonFormatter().format(record)


def _assert_clean(line: str) -> None:
    leaked = [value for value in SENSITIVE if value in line]
    assert leaked == [], line


@pytest.mark.parametrize(
    "message",
    [
        f"starting proposal for cpf {CPF}",
        "customer cpf 529.982.247-25 blocked",
        f"Authorization: Bearer {JWT}",
        f"token issued {JWT}",
        "Authorization: Basic c2VjcmV0OnBhc3M=",
        f"POST /oauth2/token grant_type=client_credentials&client_id=sandbox-partner-a&client_secret={SECRET}",
        "sms token=987654 sent",
    ],
)
def test_plain_text_lines(message):
    _assert_clean(_line(message))


def test_json_payload_of_a_banking_data_request():
    payload = {
        "cpf": CPF,
        "bank_code": "001",
        "bank_branch": "1234",
        "bank_account": ACCOUNT,
        "bank_account_digit": "9",
        "account_type": "checking",
        "pix_key": "7c9e6679-key-pix",
        "pix_key_type": "EVP",
    }
    line = _line("banking data received %s", json.dumps(payload))
    _assert_clean(line)
    assert '"bank_code": "001"' in json.loads(line)["message"]  # non-sensitive fields stay readable


def test_python_repr_of_credentials_and_webhook_auth():
    config = {"client_secret": SECRET, "webhook_auth_value": f"Bearer {JWT}", "x-api-key": SECRET, "access_token": JWT}
    _assert_clean(_line("partner config %r", config))


def test_exception_text_and_traceback_are_redacted():
    try:
        raise ValueError(f"invalid account={ACCOUNT} for cpf {CPF} with client_secret={SECRET}")
    except ValueError:
        import sys

        line = _line("request failed", exc_info=sys.exc_info())
    entry = json.loads(line)
    _assert_clean(line)
    assert "ValueError" in entry["exception"]


def test_message_arguments_are_redacted_after_formatting():
    _assert_clean(_line("cpf=%s account=%s", CPF, ACCOUNT))


def test_redact_keeps_ids_and_statuses_readable():
    text = "proposal 3f2b8c1e-4d5a-4b6c-9d7e-1a2b3c4d5e6f moved to TOKEN_VALIDATED in 12 ms"
    assert redact(text) == text


@pytest.mark.parametrize(
    "message, secret",
    [
        ("sms to +5511987654321 failed", "987654321"),
        ("customer phone (11) 98765-4321 on file", "98765-4321"),
        ("calling 11 98765-4321 now", "98765-4321"),
        ("whatsapp +55 11 98765-4321", "98765-4321"),
        ("raw 5511987654321 sent", "5511987654321"),
    ],
)
def test_phone_numbers_in_free_text(message, secret):
    line = _line(message)
    assert secret not in line and "***PHONE***" in line


def test_email_addresses_in_free_text():
    line = _line("bounce from maria.silva+loans@example.com.br: mailbox full")
    assert "maria.silva" not in line and "***EMAIL***" in line


@pytest.mark.parametrize(
    "message, name",
    [
        ("contract generated for MARIA DA SILVA today", "MARIA DA SILVA"),
        ("signer Maria da Silva opened the page", "Maria da Silva"),
        ("JOANA D'ÁVILA DOS SANTOS signed", "ÁVILA"),
        ("José Conceição e Souza", "Conceição"),
        ('payload {"full_name": "maria silva", "cpf": "x"}', "maria silva"),
        ("full_name=joão souza&birth_date=1985-04-12", "joão souza"),
    ],
)
def test_names_in_free_text_and_under_name_keys(message, name):
    line = _line(message)
    assert name not in line and "***NAME***" in line


@pytest.mark.parametrize(
    "text",
    [
        "ALERT auction webhook to https://x FAILED after 5 attempts",
        "INSERT INTO proposal VALUES",
        "POST /v1/proposals/<proposal_id>/contact 201",
        "actor_name=credit_analysis queue_name=credit_analysis",
        "signature t=1715435100 checked",
        "Traceback (most recent call last)",
    ],
)
def test_log_vocabulary_is_not_taken_for_personal_data(text):
    assert redact(text) == text

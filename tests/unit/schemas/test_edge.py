"""The edge's value rules (schemas/edge.py) and the request schemas that use them, without the app."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

import pytest
from marshmallow import ValidationError

from models.domain import person_name
from schemas import edge
from schemas.callbacks import ESignatureEvent, FundingEvent
from schemas.credit import ContactRequest, StartRequest, ValidateTokenRequest
from schemas.credit_analysis import CreditAnalysisRequest, PreAcceptRequest, SimulateRequest
from schemas.queries import ProposalListArgsSchema

FULLWIDTH_ZERO = "\uff10"
START = {"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"}


def _errors(schema, data) -> dict:
    with pytest.raises(ValidationError) as raised:
        schema.load(data)
    return raised.value.normalized_messages()


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sent, kept",
    [
        ("Joana D\u2019Ávila", "Joana D'Ávila"),  # typographic apostrophe
        ("Joana D\u02bcÁvila", "Joana D'Ávila"),  # modifier letter apostrophe
        (unicodedata.normalize("NFD", "José Conceição"), "José Conceição"),  # decomposed accents
        ("  Maria   da\u00a0Silva\t", "Maria da Silva"),  # runs of (non-breaking) whitespace
        ("Ana\u2011Clara Souza", "Ana-Clara Souza"),  # non-breaking hyphen
    ],
)
def test_names_as_hr_systems_send_them_are_normalised(sent, kept):
    assert StartRequest().load({**START, "full_name": sent})["full_name"] == kept


def test_a_normalised_name_is_nfc():
    name = StartRequest().load({**START, "full_name": unicodedata.normalize("NFD", "Luíza Conceição")})["full_name"]
    assert unicodedata.is_normalized("NFC", name)


@pytest.mark.parametrize("name", ["Maria 2 Silva", "Maria_Silva", "   ", "M", "Maria <b>", "'' --"])
def test_names_with_other_characters_or_too_short_are_refused(name):
    assert "full_name" in _errors(StartRequest(), {**START, "full_name": name})


def test_the_name_length_is_checked_as_sent_and_the_stored_form_is_never_longer():
    assert StartRequest().load({**START, "full_name": "A" * 198 + " B"})["full_name"]
    assert "full_name" in _errors(StartRequest(), {**START, "full_name": "A" * 199 + " B"})
    # Spaces collapse after the check: what the document calls too long is refused, whatever it becomes
    assert "full_name" in _errors(StartRequest(), {**START, "full_name": "A" * 100 + "  " * 50 + "B"})


@pytest.mark.parametrize("name", ["Hans Strauß", "Ŀuŉa", "ǰoão", "Иван Петров", "李 小龙"])
def test_letters_outside_the_documented_class_are_refused(name):
    # ß, ŉ and ǰ upper-case to two characters; other scripts are not in the documented pattern
    assert "full_name" in _errors(StartRequest(), {**START, "full_name": name})


def test_no_documented_name_is_longer_once_normalised_and_upper_cased():
    # Every letter the pattern admits, around every accent or joiner, and decomposed letters with up
    # to two accents (NFC composes and reorders them) keep or shorten their length through
    # normalisation and upper-casing: the 200 characters sent bound the stored column.
    pattern = re.compile(person_name.NAME_PATTERN)
    letters = [chr(code) for code in range(0x2000) if pattern.fullmatch(chr(code) * 2)]
    inner = [chr(code) for code in range(0x3100) if pattern.fullmatch(f"a{chr(code)}a") and chr(code) not in letters]
    assert len(letters) > 600 and len(inner) > 100
    sent = [f"{letter}{mark}{letter}" for letter in letters for mark in ["", *inner]]
    sent += [f"{base}{first}{second}a" for base in "aAhHjJtTwWyYuU" for first in inner for second in inner]
    for name in filter(pattern.fullmatch, sent):
        assert len(person_name.normalise_name(name).upper()) <= len(name), ascii(name)


# --- digits -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cpf", ["5299822472" + FULLWIDTH_ZERO, "52998224725\n", " 52998224725", "529.982.247-25", "52998224724"]
)
def test_a_cpf_is_eleven_ascii_digits_with_check_digits(cpf):
    assert "cpf" in _errors(StartRequest(), {**START, "cpf": cpf})


@pytest.mark.parametrize("phone", ["+5511987654321\n", "+551198765432" + FULLWIDTH_ZERO, "+55 11987654321"])
def test_a_phone_is_matched_whole_in_ascii_digits(phone):
    assert "phone" in _errors(ContactRequest(), {"email": "a@b.co", "phone": phone})


def test_the_sms_code_is_six_ascii_digits():
    body = {"token": "12345" + FULLWIDTH_ZERO, "phone": "+5511987654321"}
    assert "token" in _errors(ValidateTokenRequest(), body)


def test_the_email_is_stored_lower_case_and_bounded_after():
    assert ContactRequest().load({"email": " Maria@Example.COM ", "phone": "+5511987654321"})["email"] == (
        "maria@example.com"
    )
    assert "email" in _errors(ContactRequest(), {"email": "a" * 250 + "@b.co", "phone": "+5511987654321"})


# --- numbers and dates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"installments": True},
        {"installments": 12.5},
        {"installments": "12"},
        {"installments": 2**31},
        {"installments": 0},
        {"loan_amount": "1e999999999"},
        {"loan_amount": float("inf")},
        {"loan_amount": "NaN"},
        {"loan_amount": -5},
        {"loan_amount": True},
        {"loan_amount": "1" + FULLWIDTH_ZERO},
    ],
)
def test_simulation_numbers_are_finite_and_bounded(body):
    assert set(_errors(SimulateRequest(), body)) & {"installments", "loan_amount"}


def test_a_decimal_amount_keeps_the_value_written():
    assert SimulateRequest().load({"loan_amount": 5000.1})["loan_amount"] == Decimal("5000.1")
    assert SimulateRequest().load({"loan_amount": 5000})["loan_amount"] == Decimal("5000")


@pytest.mark.parametrize(
    "body",
    [{"loan_amount": "5000.10"}, {"installments": "12"}, {"insured": 1, "installments": 12}, {"insured": "true"}],
)
def test_json_types_are_taken_as_declared(body):
    # A numeric string is not a number, 1 or "true" is not true
    assert set(_errors(SimulateRequest(), body)) & {"installments", "loan_amount", "insured"}


def test_coordinates_are_json_numbers():
    body = {"ip": "1.2.3.4", "document_text": "x", "channel": "web"}
    assert "geolocation" in _errors(CreditAnalysisRequest(), {**body, "geolocation": {"latitude": "1", "longitude": 0}})
    loaded = CreditAnalysisRequest().load({**body, "geolocation": {"latitude": -23.5, "longitude": 0}})
    assert loaded["geolocation"] == {"latitude": -23.5, "longitude": 0.0}


@pytest.mark.parametrize("value", ["1" + FULLWIDTH_ZERO, "1_000", " 7", "+", "10" * 20, "1.0"])
def test_query_integers_are_plain_ascii_digits(value):
    assert "page" in _errors(ProposalListArgsSchema(), {"page": value})


def test_a_page_beyond_any_offset_is_refused():
    assert "page" in _errors(ProposalListArgsSchema(), {"page": str(10**30)})
    assert ProposalListArgsSchema().load({"page": "3"})["page"] == 3


@pytest.mark.parametrize("day", ["\uff12\uff10\uff12\uff16-01-01", "2026-1-1", "2026-01-01T00:00"])
def test_days_are_written_in_ascii_digits(day):
    assert "created_from" in _errors(ProposalListArgsSchema(), {"created_from": day})
    assert "birth_date" in _errors(StartRequest(), {**START, "birth_date": day})


def test_a_uuid_is_ascii_hex():
    assert "selected_offer_id" in _errors(PreAcceptRequest(), {"selected_offer_id": "\uff11" * 32})
    loaded = PreAcceptRequest().load({"selected_offer_id": "5F0C7A2E-1D4B-4C8E-9A51-3B7D2E6F8A10"})
    assert loaded["selected_offer_id"] == "5f0c7a2e-1d4b-4c8e-9a51-3b7d2e6f8a10"


@pytest.mark.parametrize("ip", ["fe80::1%" + "a" * 60, "1.2.3.4 ", "\uff11.2.3.4", "1" * 46])
def test_the_consent_ip_fits_its_column(ip):
    body = {"ip": ip, "geolocation": {"latitude": 0, "longitude": 0}, "document_text": "x", "channel": "web"}
    assert "ip" in _errors(CreditAnalysisRequest(), body)


# --- strings bounded by their columns ---------------------------------------------------------


def test_free_text_is_bounded_by_its_column():
    body = {"ip": "1.2.3.4", "geolocation": {"latitude": 0, "longitude": 0}, "document_text": "x", "channel": "w" * 17}
    assert "channel" in _errors(CreditAnalysisRequest(), body)


def test_callback_fields_are_bounded():
    assert "process_id" in _errors(ESignatureEvent(), {"process_id": "p" * 65, "event": "PROCESS_STARTED"})
    assert "trust_result" in _errors(
        ESignatureEvent(), {"process_id": "p", "event": "PROCESS_FINISHED", "trust_result": {"a": 1}}
    )
    assert "issuer_application_id" in _errors(FundingEvent(), {"event": "WITHDRAWAL", "issuer_application_id": 7})


# --- the JSON rule of the request guard ---------------------------------------------------------


def test_json_nested_beyond_the_limit_is_refused_without_recursion():
    deep: list = []
    node = deep
    for _ in range(100_000):
        node.append([])
        node = node[0]
    problem = edge.json_problem(deep)
    assert problem is not None and problem.error_code == "INVALID_JSON"
    assert edge.json_problem([[[]]]) is None


@pytest.mark.parametrize(
    "document, field",
    [({"loan_amount": float("inf")}, "loan_amount"), ({"a": [{"b": float("nan")}]}, "a[0].b")],
)
def test_json_numbers_that_are_not_finite_are_refused_with_their_path(document, field):
    problem = edge.json_problem(document)
    assert problem is not None and (problem.error_code, problem.field) == ("VALIDATION_ERROR", field)


def test_json_strings_are_the_fields_business():
    # Control characters in a field no schema declares are dropped with it, unread
    assert edge.json_problem({"k\x00": "\x1b[2J"}) is None


# --- control characters in string fields --------------------------------------------------------


@pytest.mark.parametrize("value", ["Ma\x00ria", "web\n", "\x1b[2J", "a\x7f"])
def test_single_line_text_refuses_control_characters(value):
    body = {"ip": "1.2.3.4", "geolocation": {"latitude": 0, "longitude": 0}, "document_text": "x", "channel": value}
    assert "channel" in _errors(CreditAnalysisRequest(), body)


def test_free_text_keeps_its_lines_and_refuses_other_control_characters():
    body = {"ip": "1.2.3.4", "geolocation": {"latitude": 0, "longitude": 0}, "channel": "web"}
    text = "line 1\r\nline 2\tend"
    assert CreditAnalysisRequest().load({**body, "document_text": text})["document_text"] == text
    assert "document_text" in _errors(CreditAnalysisRequest(), {**body, "document_text": "a\x00b"})


def test_fields_a_schema_does_not_declare_are_dropped():
    assert "\x1b[2J" not in StartRequest().load({**START, "\x1b[2J": "\x00"})

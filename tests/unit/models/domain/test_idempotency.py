"""Idempotency-Key rules: valid keys, the request fingerprint and what a repeated key gets."""

from datetime import datetime, timedelta, timezone

import pytest

from models.domain.idempotency import KeyRecord, Verdict, decide, fingerprint, valid_key, worth_keeping

T0 = datetime(2026, 3, 10, 13, 0, tzinfo=timezone.utc)
DAY = timedelta(hours=24)
TIMEOUT = timedelta(seconds=300)
BODY = b'{"email": "maria@example.com", "phone": "+5511987654321"}'


@pytest.mark.parametrize("key", ["a", "0b9d3c7e-8a51-4c3f-9a0e-2f4f1c6d7e8a", "!~" * 10, "x" * 255])
def test_printable_ascii_keys_up_to_255_characters_are_valid(key):
    assert valid_key(key)


@pytest.mark.parametrize("key", ["", "x" * 256, "with space", "tab\there", "line\n", "ção", "\x7f"])
def test_empty_long_spaced_control_or_non_ascii_keys_are_not(key):
    assert not valid_key(key)


def test_the_same_json_in_another_key_order_or_spacing_is_the_same_request():
    reordered = b'{ "phone":"+5511987654321",\n "email":"maria@example.com" }'
    assert fingerprint("POST", "/v1/x", [], BODY) == fingerprint("post", "/v1/x", [], reordered)


@pytest.mark.parametrize(
    "method,path,query,body",
    [
        ("POST", "/v1/y", [], BODY),
        ("PUT", "/v1/x", [], BODY),
        ("POST", "/v1/x", [("async", "true")], BODY),
        ("POST", "/v1/x", [], BODY.replace(b"maria", b"joana")),
        ("POST", "/v1/x", [], b""),
    ],
)
def test_another_method_path_query_or_body_is_another_request(method, path, query, body):
    assert fingerprint(method, path, query, body) != fingerprint("POST", "/v1/x", [], BODY)


def test_query_parameters_compare_in_any_order_and_a_body_that_is_not_json_byte_for_byte():
    assert fingerprint("POST", "/v1/x", [("a", "1"), ("b", "2")], b"") == fingerprint(
        "POST", "/v1/x", [("b", "2"), ("a", "1")], b"  "
    )
    assert fingerprint("POST", "/v1/x", [], b"a=1") != fingerprint("POST", "/v1/x", [], b"a=2")


def record(*, answered: bool = True, claimed_at: datetime = T0, fp: str = "f1") -> KeyRecord:
    return KeyRecord(fingerprint=fp, claimed_at=claimed_at, expires_at=T0 + DAY, answered=answered)


def test_a_new_key_is_claimed():
    assert decide(None, "f1", T0, TIMEOUT) is Verdict.CLAIM


def test_the_same_request_replays_until_the_last_instant_of_its_24_hours_then_runs_again():
    assert decide(record(), "f1", T0 + DAY - timedelta(microseconds=1), TIMEOUT) is Verdict.REPLAY
    assert decide(record(), "f1", T0 + DAY, TIMEOUT) is Verdict.CLAIM


def test_another_request_under_the_key_is_reused_while_it_lives_and_free_after():
    assert decide(record(), "f2", T0 + DAY - timedelta(seconds=1), TIMEOUT) is Verdict.REUSED
    assert decide(record(answered=False), "f2", T0, TIMEOUT) is Verdict.REUSED
    assert decide(record(), "f2", T0 + DAY, TIMEOUT) is Verdict.CLAIM


def test_a_running_request_holds_its_key_until_the_in_flight_timeout_then_it_may_be_taken_over():
    running = record(answered=False)
    assert decide(running, "f1", T0 + TIMEOUT - timedelta(microseconds=1), TIMEOUT) is Verdict.IN_USE
    assert decide(running, "f1", T0 + TIMEOUT, TIMEOUT) is Verdict.TAKE_OVER


@pytest.mark.parametrize("status,kept", [(200, True), (201, True), (202, True), (303, True), (409, True), (499, True)])
def test_final_answers_are_kept(status, kept):
    assert worth_keeping(status) is kept


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_a_5xx_is_not_kept(status):
    assert not worth_keeping(status)

"""The fault-injection suite's own rules: its plan, how it reads answers, which partner step follows
each status, and what its checks call a failure (bench.fault; the run itself is tests/fault)."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest
import requests

from bench.fault.client import HttpProblem, is_spec_error_body, route_of
from bench.fault.evidence import Change, Evidence, Payment, Received
from bench.fault.injector import FaultRecord
from bench.fault.plan import Fault, FaultKind, standard_plan
from bench.fault.verdict import check_events, check_final, check_http, check_outbox, check_payments, judge
from bench.flow import RESUME_ACTIONS, resume_steps

A, B = "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"
PG_DOWN = FaultRecord(Fault(FaultKind.POSTGRES_DOWN, 60), started_at=100.0, ended_at=160.0)


def _journey(proposal_id, ended="handed_over", detail=""):
    return SimpleNamespace(proposal_id=proposal_id, ended=ended, detail=detail)


def _response(code: int, body: bytes, headers: dict | None = None) -> requests.Response:
    response = requests.Response()
    response.status_code, response._content = code, body
    response.headers.update(headers or {})
    return response


def test_standard_plan_is_the_issues_run_with_one_wave_of_proposals_per_fault():
    plan = standard_plan(300, 60)
    assert [fault.kind for fault in plan.faults] == [
        FaultKind.KILL_WORKERS,
        FaultKind.KILL_WORKERS,
        FaultKind.RABBITMQ_RESTART,
        FaultKind.POSTGRES_RESTART,
        FaultKind.POSTGRES_DOWN,
        FaultKind.RABBITMQ_DOWN,
    ]
    assert [fault.seconds for fault in plan.faults if fault.seconds] == [60, 60]
    assert plan.waves() == [50] * 6
    assert standard_plan(302, 60).waves() == [51, 51, 50, 50, 50, 50]
    # A partner outwaits the outage, and settling outlasts the webhook hold (5 minutes).
    assert plan.patience > 60 and plan.settle >= 300
    assert standard_plan(1000, 120).patience > 120


def test_routes_are_reported_without_ids_or_query():
    assert route_of(f"http://127.0.0.1:8000/v1/proposals/{A}/contract?async=true") == "/v1/proposals/{id}/contract"


def test_only_the_specs_error_body_counts_as_one():
    spec = b'{"statusCode": 503, "message": "m", "error": "Service Unavailable", "errorCode": "SERVICE_UNAVAILABLE"}'
    assert is_spec_error_body(_response(503, spec))
    assert not is_spec_error_body(_response(500, spec))  # statusCode must be the answer's
    assert not is_spec_error_body(_response(503, b'{"statusCode": 503, "message": "m", "error": "x"}'))
    assert not is_spec_error_body(_response(503, b"<html>Service Unavailable</html>"))


def test_partner_resumes_from_each_status_and_waits_where_the_service_moves():
    assert resume_steps(None) == ("start",)
    assert resume_steps("TOKEN_SENT") == ("sms_token", "validate_token")
    assert resume_steps("AWAITING_SIGNATURE") == ("contract_result", "sign")
    for waiting in ("CREDIT_ANALYSIS_IN_PROGRESS", "CONTRACT_GENERATION_IN_PROGRESS", "SIGNED", "ANALYSIS_APPROVED"):
        assert resume_steps(waiting) == ()
    every_status = [None, "CREATED", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_FAILED", "OFFERS_RECEIVED", "PRE_ACCEPTED"]
    assert all(step in RESUME_ACTIONS for status in every_status for step in resume_steps(status))


def test_final_fails_on_a_proposal_left_on_the_money_path_and_says_when_it_got_there():
    changes = [
        Change(A, 14, "SIGNED", "DISBURSED", at=50.0),
        Change(B, 13, "PENDING_ANALYSIS", "ANALYSIS_APPROVED", at=120.0),
    ]
    check = check_final({A: "DISBURSED", B: "ANALYSIS_APPROVED"}, [_journey(A), _journey(B)], changes, [PG_DOWN])
    assert not check.ok
    assert check.summary.startswith("1 of 2 proposals DISBURSED")
    assert "1 in ANALYSIS_APPROVED (1 entered it during postgres_down 60 s): bbbbbbbb" in check.details[0]
    assert (
        "1 in ANALYSIS_APPROVED (1 entered it before postgres_down 60 s)"
        in check_final(
            {B: "ANALYSIS_APPROVED"}, [_journey(B)], [Change(B, 13, None, "ANALYSIS_APPROVED", at=90.0)], [PG_DOWN]
        ).details[0]
    )


def test_final_fails_when_a_journey_never_got_a_proposal():
    check = check_final({A: "DISBURSED"}, [_journey(A), _journey(None, "gave_up", "no progress")], [], [])
    assert not check.ok and "1 journeys never got a proposal" in check.details[-1]
    assert check_final({A: "DISBURSED"}, [_journey(A)], [], []).ok


def test_payments_one_per_disbursed_proposal_and_none_elsewhere():
    assert check_payments({A: "DISBURSED"}, [Payment(A, "c1", "disb-c1", "PAID")]).ok
    twice = check_payments({A: "DISBURSED"}, [Payment(A, "c1", "disb-c1", "PAID"), Payment(A, "c2", "disb-c2", "PAID")])
    assert not twice.ok and "1 paid more than once" in twice.details[0]
    unpaid = check_payments({A: "DISBURSED"}, [])
    assert not unpaid.ok and "DISBURSED without a payment" in unpaid.details[0]
    stranded = check_payments({B: "ANALYSIS_APPROVED"}, [Payment(B, "c3", "disb-c3", "PAID")])
    assert not stranded.ok and "paid but not DISBURSED" in stranded.details[0]


def test_events_each_change_received_at_least_once_duplicates_allowed():
    changes = [Change(A, 0, None, "CREATED"), Change(A, 1, "CREATED", "TOKEN_SENT", at=130.0)]
    both = [
        Received("PARTNER_A", A, 0, "CREATED"),
        Received("PARTNER_A", A, 0, "CREATED"),
        Received("PARTNER_A", A, 1, "TOKEN_SENT"),
    ]
    check = check_events(changes, both, [PG_DOWN])
    assert check.ok and "1 duplicates" in check.summary
    lost = check_events(changes, both[:1], [PG_DOWN], {(A, 0): "DELIVERED", (A, 1): "PENDING"})
    assert not lost.ok and "1 missing" in lost.summary
    assert "TOKEN_SENT 1" in lost.details[0] and "during postgres_down 60 s" in lost.details[1]
    assert lost.details[2] == "missing, the service's delivery row: PENDING 1"


def test_outbox_due_rows_fail_and_unreadable_outbox_fails():
    assert check_outbox(0, 2, {}).ok
    assert not check_outbox(3, 0, {"endorse_contract": 3}).ok
    assert not check_outbox(-1, -1, {}).ok


def test_http_accepts_only_503_with_the_spec_body_and_retry_after():
    fine = HttpProblem(110.0, "GET", "/v1/proposals/{id}", 503, "5", True, "")
    assert check_http([fine], [PG_DOWN]).ok
    for bad in (
        HttpProblem(110.0, "GET", "/v1/proposals/{id}", 500, None, True, "Internal error"),
        HttpProblem(110.0, "GET", "/v1/proposals/{id}", 503, None, True, "no Retry-After"),
        HttpProblem(110.0, "GET", "/v1/proposals/{id}", 503, "5", False, "<html>"),
        HttpProblem(10.0, "POST", "/oauth2/token", None, None, False, "ConnectionError"),
    ):
        assert not check_http([fine, bad], [PG_DOWN]).ok
    check = check_http([HttpProblem(110.0, "GET", "/v1/proposals/{id}", 500, None, True, "x")], [PG_DOWN])
    assert "during postgres_down 60 s: 500 x1 GET /v1/proposals/{id}" in check.details


def test_judge_reports_every_check_and_the_verdict():
    evidence = Evidence(proposals={A: "DISBURSED"}, changes=[Change(A, 0, None, "CREATED")])
    evidence.payments = [Payment(A, "c1", "disb-c1", "PAID")]
    evidence.received = [Received("PARTNER_A", A, 0, "CREATED")]
    run = SimpleNamespace(
        plan=standard_plan(1, 1),
        evidence=evidence,
        journeys=[
            SimpleNamespace(proposal_id=A, ended="handed_over", detail="", step_failures=Counter(), first_failures={})
        ],
        problems=[],
        faults=[PG_DOWN],
        restarts=[],
        timings=["machine: test"],
    )
    verdict = judge(run)
    assert verdict.ok and verdict.failed() == []
    assert repr(verdict) == "Verdict(PASS)"
    assert verdict.report.endswith("VERDICT: PASS")
    assert [check.name for check in verdict.checks] == ["final", "payments", "events", "outbox", "http"]


def test_report_lists_each_proposal_left_short_with_its_contract_and_payments():
    evidence = Evidence(proposals={A: "DISBURSED", B: "ANALYSIS_APPROVED"})
    evidence.changes = [
        Change(A, 0, None, "CREATED", at=1.0),
        Change(B, 13, "PENDING_ANALYSIS", "ANALYSIS_APPROVED", at=99.5),
    ]
    evidence.payments = [Payment(A, "c1", "disb-c1", "PAID"), Payment(B, "c2", "disb-c2", "PAID")]
    evidence.contracts = {B: ["c2"]}
    run = SimpleNamespace(
        plan=standard_plan(2, 60),
        evidence=evidence,
        journeys=[
            SimpleNamespace(proposal_id=pid, ended="handed_over", detail="", step_failures=Counter(), first_failures={})
            for pid in (A, B)
        ],
        problems=[],
        faults=[PG_DOWN],
        restarts=[],
        timings=[],
    )
    verdict = judge(run)
    assert not verdict.ok
    assert f"  {B} ANALYSIS_APPROVED since +99.5 s (before postgres_down 60 s); contract c2; payments PAID: 1" in (
        verdict.report.splitlines()
    )
    assert verdict.failed()[0].startswith("final: 1 of 2 proposals DISBURSED")
    assert repr(verdict) == "Verdict(FAIL: final, payments, events)"  # nothing was received either


def _patient(monkeypatch, patience: float):
    from bench.fault import client as patient

    monkeypatch.setattr(patient.time, "sleep", lambda seconds: None)
    log = patient.ProblemLog(started=0.0)
    return patient.PatientClient(
        "http://127.0.0.1:9",
        "id",
        "secret",
        log=log,
        give_up_at=lambda: float("inf"),
        patience=patience,
        poll_interval=0,
    )


def test_patient_client_retries_5xx_and_refused_connections_and_records_each(monkeypatch):
    client = _patient(monkeypatch, patience=60)
    answers = [
        requests.ConnectionError("refused"),
        _response(500, b'{"statusCode": 500}'),
        _response(503, b"{}", {"Retry-After": "3"}),
        _response(200, b"{}"),
    ]

    def send():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert client._patiently("status", "GET", f"http://h/v1/proposals/{A}", send).status_code == 200
    assert [(p.code, p.route, p.retry_after) for p in client.log.problems] == [
        (None, "/v1/proposals/{id}", None),
        (500, "/v1/proposals/{id}", None),
        (503, "/v1/proposals/{id}", "3"),
    ]


def test_patient_client_gives_up_once_the_service_failed_for_its_patience(monkeypatch):
    from bench.client import StepFailed

    client = _patient(monkeypatch, patience=0.5)
    with pytest.raises(StepFailed, match="kept failing"):
        client._patiently("status", "GET", "http://h/v1/banks", lambda: _response(500, b"{}"))

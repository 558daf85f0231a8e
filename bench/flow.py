"""The partner journey, step by step (spec order), on a PartnerClient.

``run_flow`` returns the seconds each step took; ``on_step(name, seconds, info)`` reports progress.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from bench.client import ANALYSIS_BODY, BANK_ACCOUNT, GaveUp, PartnerClient, RouteMissing, StepFailed

STEPS = (
    "start",
    "contact",
    "sms_token",
    "validate_token",
    "credit_analysis",
    "simulate",
    "pre_accept",
    "banking_data",
    "contract",
    "sign",
    "disbursed",
)
ANALYSIS_DONE = ("OFFERS_RECEIVED", "CREDIT_CHECK_COMPLETED")
PAYROLL_RETRY = "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"
MAINTENANCE_HINT = (
    "(outside the sandbox environment the payroll system refuses margin queries from the 20th "
    "22:00 to the 23rd 06:00, São Paulo; run the service with APP_ENV=sandbox, where "
    "payroll_window.enforced is off, to walk the flow on any day)"
)


def _expect(step, response, *codes):
    if response.status_code not in codes:
        raise StepFailed(step, response)
    return response.json() if response.content else {}


def _start(c, state):
    body = _expect(
        "start",
        c.call(
            "start",
            "POST",
            "/proposals/start",
            json={"cpf": state["cpf"], "full_name": state["full_name"], "birth_date": "1985-03-10"},
        ),
        201,
        200,
    )
    state["proposal_id"] = body["proposal_id"]
    return body["proposal_id"]


def _contact(c, state):
    _expect(
        "contact",
        c.call(
            "contact",
            "POST",
            f"/proposals/{state['proposal_id']}/contact",
            json={"email": state["email"], "phone": state["phone"]},
        ),
        201,
        200,
    )
    return state["phone"]


def _sms_token(c, state):
    def arrived(response):
        return response.status_code == 200 and any(m.get("token") for m in response.json())

    messages = c.poll("sms_token", f"/sandbox/messages?phone={state['phone'].replace('+', '%2B')}", arrived, 30)
    state["sms_token"] = next(m["token"] for m in messages.json() if m.get("token"))
    return "received"


def _validate_token(c, state):
    body = _expect(
        "validate_token",
        c.call(
            "validate_token",
            "POST",
            f"/proposals/{state['proposal_id']}/contact/validate-token",
            json={"token": state["sms_token"], "phone": state["phone"]},
        ),
        200,
        201,
    )
    return body.get("status", "TOKEN_VALIDATED")


def _resend_token(c, state):
    """A new code when the last one expired or was used up (409: cooldown, or no longer needed)."""
    path = f"/proposals/{state['proposal_id']}/contact/resend-token"
    _expect("resend_token", c.call("resend_token", "POST", path), 200, 409)
    return "resent"


def _analysis_settled(response):
    # Still analysing: a 202 acknowledgement, unless it waits for an automatic payroll retry (the
    # acknowledgement's proposal_status says so; its status is always CREDIT_ANALYSIS_IN_PROGRESS).
    return response.status_code != 202 or response.json().get("proposal_status") == PAYROLL_RETRY


def _credit_analysis(c, state):
    path = f"/proposals/{state['proposal_id']}/credit-analysis"
    response = c.call("credit_analysis", "POST", path, json=ANALYSIS_BODY)
    return _take_offer(c, state, response)


def _analysis_result(c, state):
    """The analysis already asked for (resuming): poll its result and keep the offer."""
    return _take_offer(c, state, None)


def _take_offer(c, state, response):
    path = f"/proposals/{state['proposal_id']}/credit-analysis"
    if response is None or not _analysis_settled(response):
        response = c.poll("credit_analysis", path, _analysis_settled, 120)
    if response.status_code == 202 and response.json().get("proposal_status") == PAYROLL_RETRY:
        raise StepFailed("credit_analysis", response, MAINTENANCE_HINT)
    body = _expect("credit_analysis", response, 200, 201)
    if body.get("status") not in ANALYSIS_DONE or not body.get("offer"):
        raise StepFailed("credit_analysis", response, "no offer")
    state["offer"] = body["offer"]
    return f"{body['status']}, offer {body['offer']['principal_amount']} in {body['offer']['installments']}x"


def _analysis_retry(c, state):
    """CREDIT_ANALYSIS_FAILED: retry when the failure is retryable (as a partner would)."""
    path = f"/proposals/{state['proposal_id']}/credit-analysis"
    body = _expect("analysis_retry", c.call("analysis_retry", "GET", path), 200)
    if not body.get("retryable"):
        raise GaveUp("analysis_retry", f"CREDIT_ANALYSIS_FAILED, not retryable ({body.get('error_code')})")
    _expect("analysis_retry", c.call("analysis_retry", "POST", path + "/retry/async"), 200, 202)
    return "retry asked"


def _simulate(c, state):
    body = _expect(
        "simulate",
        c.call(
            "simulate",
            "POST",
            f"/proposals/{state['proposal_id']}/simulate",
            json={"installments": state["offer"]["installments"]},
        ),
        200,
    )
    offers = [offer for offer in body.get("offers", []) if offer.get("is_available", True)]
    state["selected_offer_id"] = (offers[0] if offers else state["offer"])["id"]
    return f"{body.get('total_offers', len(offers))} offer(s)"


def _pre_accept(c, state):
    body = _expect(
        "pre_accept",
        c.call(
            "pre_accept",
            "POST",
            f"/proposals/{state['proposal_id']}/pre-accept",
            json={"selected_offer_id": state["selected_offer_id"]},
        ),
        200,
        201,
    )
    return body.get("status", "PRE_ACCEPTED")


def _banking_data(c, state):
    response = c.call("banking_data", "POST", f"/proposals/{state['proposal_id']}/banking-data", json=BANK_ACCOUNT)
    body = _expect("banking_data", response, 200)
    if not body.get("ok"):
        raise StepFailed("banking_data", response, "ok is false")
    return body["status"]


def _contract(c, state):
    path = f"/proposals/{state['proposal_id']}/contract"
    response = c.call("contract", "POST", path, json={})
    return _take_signing_url(c, state, response)


def _contract_result(c, state):
    """The contract already asked for (resuming): poll it and keep the signing URL."""
    return _take_signing_url(c, state, None)


def _take_signing_url(c, state, response):
    path = f"/proposals/{state['proposal_id']}/contract"
    if response is None or response.status_code == 202:
        response = c.poll("contract", path, lambda r: r.status_code != 202, 180)
    body = _expect("contract", response, 200, 201)
    signature = body.get("digital_signature") or {}
    state["sign_url"] = body.get("user_redirect_url") or signature.get("user_redirect_url")
    if not state["sign_url"]:
        raise StepFailed("contract", response, "no user_redirect_url")
    state["contract_id"] = body.get("contract_id")
    return body.get("status") or body.get("contract_status")


def _sign(c, state):
    # The sandbox provider builds the URL from the service's public address (PUBLIC_BASE_URL, else
    # the host and port it serves on), which a proxy in front may change;
    # open the same page on the service under test, wherever it listens.
    url = c.absolute(state["sign_url"])
    path = urlsplit(url).path
    if path.startswith("/sandbox/"):
        url = c.root + path
    c.call("sign", "GET", url)  # opening the page starts the signing process
    _expect("sign", c.call("sign", "POST", url, json={}, allow_redirects=False), 200, 201, 303)
    return "signed in the sandbox"


def _disbursed(c, state):
    def final(response):
        return response.status_code == 200 and response.json().get("status") in (
            "DISBURSED",
            "DISBURSEMENT_FAILED",
            "SIGNATURE_FAILED",
            "ERROR",
        )

    body = c.poll("disbursed", f"/proposals/{state['proposal_id']}", final, 180).json()
    if body["status"] != "DISBURSED":
        raise StepFailed("disbursed", None, f"ended in {body['status']}")
    return body["status"]


ACTIONS = {
    "start": _start,
    "contact": _contact,
    "sms_token": _sms_token,
    "validate_token": _validate_token,
    "credit_analysis": _credit_analysis,
    "simulate": _simulate,
    "pre_accept": _pre_accept,
    "banking_data": _banking_data,
    "contract": _contract,
    "sign": _sign,
    "disbursed": _disbursed,
}
RESUME_ACTIONS = {
    **ACTIONS,
    "resend_token": _resend_token,
    "analysis_result": _analysis_result,
    "analysis_retry": _analysis_retry,
    "contract_result": _contract_result,
}
# What a partner does next from each status (resume_steps). Statuses missing here are the
# service's to move on (analysis, contract generation, everything after the signature) or final.
_RESUME = {
    None: ("start",),
    "CREATED": ("contact",),
    "TOKEN_SENT": ("sms_token", "validate_token"),
    "TOKEN_VALIDATED": ("credit_analysis",),
    "CREDIT_ANALYSIS_FAILED": ("analysis_retry",),
    "CREDIT_CHECK_COMPLETED": ("analysis_result", "simulate", "pre_accept"),
    "OFFERS_RECEIVED": ("analysis_result", "simulate", "pre_accept"),
    "OFFER_SELECTED": ("analysis_result", "simulate", "pre_accept"),
    "PRE_ACCEPTED": ("banking_data",),
    "BANK_DATA_SUBMITTED": ("contract",),
    "CONTRACT_GENERATED": ("contract_result", "sign"),
    "AWAITING_SIGNATURE": ("contract_result", "sign"),
}


def resume_steps(status: str | None) -> tuple[str, ...]:
    """The partner's next steps (names in RESUME_ACTIONS) from ``status`` (None: not started yet);
    empty when the next move is the service's (or the proposal is final)."""
    return _RESUME.get(status, ())


def run_flow(client: PartnerClient, state: dict, on_step=None) -> dict[str, float]:
    """Run every step in order on ``state`` (cpf, full_name, email, phone); seconds per step."""
    timings: dict[str, float] = {}
    for step in STEPS:
        started = time.perf_counter()
        try:
            info = ACTIONS[step](client, state)
        except (RouteMissing, StepFailed):
            raise
        except Exception as error:  # connection refused, timeout, unexpected body: name the step
            raise StepFailed(step, None, f"{type(error).__name__}: {error}") from error
        timings[step] = time.perf_counter() - started
        if on_step:
            on_step(step, timings[step], info)
    return timings

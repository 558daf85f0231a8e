"""OpenAPI links: how a partner's journey chains one operation's answer into the next call.

They document the journey (start, contact, SMS code, analysis, offers, banking data, contract) in
the document itself, so clients and the stateful fuzzer follow it without out-of-band knowledge.
Each entry is ``(operationId, status) -> {link name: (target operationId, parameters, body)}``.
The SMS code step goes through the sandbox inbox (GET /sandbox/messages), which exists only where
sandbox routes are mounted; elsewhere the links to it are left out.
"""

from __future__ import annotations

PROPOSAL_IN_BODY = {"proposal_id": "$response.body#/proposal_id"}
PROPOSAL_IN_PATH = {"proposal_id": "$request.path.proposal_id"}

_ANALYSIS_NEXT = {
    "GetCreditAnalysis": ("get_credit_analysis", PROPOSAL_IN_BODY, None),
    "Simulate": ("simulate", PROPOSAL_IN_BODY, None),
    "PreAcceptTheOffer": ("pre_accept", PROPOSAL_IN_BODY, {"selected_offer_id": "$response.body#/offer/id"}),
    "RetryCreditAnalysis": ("retry_credit_analysis_async", PROPOSAL_IN_BODY, None),
    "GetProposal": ("get_proposal", PROPOSAL_IN_BODY, None),
}
_CONTRACT_NEXT = {
    "GetContract": ("get_contract", PROPOSAL_IN_PATH, None),
    "GetContractDocument": ("get_contract_document", PROPOSAL_IN_PATH, None),
    "CancelProposal": ("cancel_proposal", PROPOSAL_IN_PATH, None),
    "GetProposal": ("get_proposal", PROPOSAL_IN_PATH, None),
}
_STARTED = {
    "SendContact": ("send_contact", PROPOSAL_IN_BODY, None),
    "GetProposal": ("get_proposal", PROPOSAL_IN_BODY, None),
}

JOURNEY: dict[tuple[str, int], dict[str, tuple[str, dict, dict | None]]] = {
    ("start_proposal", 201): _STARTED,
    ("start_proposal", 200): _STARTED,
    ("send_contact", 201): {
        "ReadTheSmsCode": ("list_sandbox_messages", {"phone": "$response.body#/phone"}, None),
        "ResendTheCode": ("resend_token_sms", PROPOSAL_IN_PATH, None),
    },
    ("list_sandbox_messages", 200): {
        "ValidateTheCode": (
            "validate_token",
            {"proposal_id": "$response.body#/0/proposal_id"},
            {"token": "$response.body#/0/token", "phone": "$request.query.phone"},
        ),
    },
    ("validate_token", 200): {
        "StartCreditAnalysis": ("start_credit_analysis", PROPOSAL_IN_BODY, None),
        "StartCreditAnalysisAsync": ("start_credit_analysis_async", PROPOSAL_IN_BODY, None),
    },
    ("start_credit_analysis", 201): _ANALYSIS_NEXT,
    ("start_credit_analysis", 200): _ANALYSIS_NEXT,
    ("start_credit_analysis", 202): {"GetCreditAnalysis": ("get_credit_analysis", PROPOSAL_IN_BODY, None)},
    ("start_credit_analysis_async", 202): {"GetCreditAnalysis": ("get_credit_analysis", PROPOSAL_IN_BODY, None)},
    ("get_credit_analysis", 200): _ANALYSIS_NEXT,
    ("simulate", 200): {
        "PreAcceptAnOffer": ("pre_accept", PROPOSAL_IN_BODY, {"selected_offer_id": "$response.body#/offers/0/id"}),
    },
    ("pre_accept", 200): {
        "SendBankingData": ("submit_banking_data", PROPOSAL_IN_BODY, {"use_pix_cpf": True}),
    },
    ("submit_banking_data", 200): {
        "GenerateContract": ("generate_contract", PROPOSAL_IN_BODY, None),
        "GenerateContractAsync": ("generate_contract_async", PROPOSAL_IN_BODY, None),
    },
    ("generate_contract", 201): _CONTRACT_NEXT,
    ("generate_contract", 202): _CONTRACT_NEXT,
    ("generate_contract_async", 202): _CONTRACT_NEXT,
    ("get_contract", 200): {"CancelProposal": ("cancel_proposal", PROPOSAL_IN_PATH, None)},
}


SANDBOX_OPERATIONS = {"list_sandbox_messages"}


def links_of(operation_id: str, status: int, *, sandbox_routes: bool) -> dict:
    """The OpenAPI ``links`` object of one response (empty when the journey has none)."""
    links = {}
    for name, (target, parameters, body) in JOURNEY.get((operation_id, status), {}).items():
        if target in SANDBOX_OPERATIONS and not sandbox_routes:
            continue
        link: dict = {"operationId": target, "parameters": dict(parameters)}
        if body is not None:
            link["requestBody"] = dict(body)
        links[name] = link
    return links

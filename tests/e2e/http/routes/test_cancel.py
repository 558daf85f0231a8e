"""POST cancel: allowed in CONTRACT_GENERATED / AWAITING_SIGNATURE only; funding cancel best effort."""

import pytest

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.db.sandbox_providers import SandboxFundingApplication, SandboxSigningProcess
from models.domain.clock import isoformat_z
from models.external.funding.sandbox import SandboxFunding
from models.external.http_base import ExternalError
from tests.builders import pre_accepted_proposal
from tests.e2e.contract_path import awaiting_signature


def cancel(client, headers, proposal_id, partner="PARTNER_A"):
    return client.post(f"/v1/proposals/{proposal_id}/cancel", headers=headers(partner))


def test_cancel_while_awaiting_signature(client, auth, drain, business_day):
    proposal, contract = awaiting_signature(client, auth, drain)
    response = cancel(client, auth, proposal.id)
    saved = Proposal.get_by_id(proposal.id)
    assert (response.status_code, response.json) == (
        200,
        {
            "id": proposal.id,
            "cpf": proposal.cpf,
            "full_name": "MARIA DA SILVA",
            "status": "CANCELED",
            "updated_at": isoformat_z(saved.updated_at),
        },
    )
    drain()
    row = Contract.get_by_id(contract["contract_id"])
    assert (row.status, row.funding_canceled_at is not None) == ("CANCELED", True)
    assert (
        SandboxFundingApplication.get(SandboxFundingApplication.id == row.funding_application_id).status == "CANCELED"
    )
    assert SandboxSigningProcess.get_by_id(row.unico_process_id).status == "CANCELED"


class RefusingFunder(SandboxFunding):
    """The sandbox funder, except that it refuses every cancellation."""

    def cancel_application(self, application_id: str) -> None:
        raise ExternalError("application locked by the funder", status_code=422)


def test_cancel_succeeds_even_when_the_funder_refuses(client, auth, drain, business_day, use_runtime):
    proposal, contract = awaiting_signature(client, auth, drain)
    use_runtime(ports={"funding": RefusingFunder()})
    assert cancel(client, auth, proposal.id).json["status"] == "CANCELED"
    drain()
    row = Contract.get_by_id(contract["contract_id"])
    assert (Proposal.get_by_id(proposal.id).status, row.funding_canceled_at) == ("CANCELED", None)
    assert row.funding_cancel_error == "application locked by the funder"


def test_cancel_in_contract_generated_is_allowed(client, auth):
    proposal = pre_accepted_proposal(status="CONTRACT_GENERATED")
    assert cancel(client, auth, proposal.id).json["status"] == "CANCELED"


@pytest.mark.parametrize("status", ["BANK_DATA_SUBMITTED", "SIGNED", "DISBURSED", "CANCELED"])
def test_cancel_refused_in_other_statuses(client, auth, status):
    proposal = pre_accepted_proposal(status=status)
    response = cancel(client, auth, proposal.id)
    assert (response.status_code, response.json) == (
        400,
        {
            "statusCode": 400,
            "error": "Bad Request",
            "errorCode": "INVALID_STATUS_FOR_CANCEL",
            "message": f"Proposal in status {status} cannot be canceled; allowed only in CONTRACT_GENERATED or "
            "AWAITING_SIGNATURE",
            "details": {"currentStatus": status, "requiredStatus": "CONTRACT_GENERATED or AWAITING_SIGNATURE"},
        },
    )
    assert Proposal.get_by_id(proposal.id).status == status


def test_cancel_unknown_proposal_is_404(client, auth):
    response = cancel(client, auth, "0f8fad5b-d9cb-469f-a165-70867728950e")
    assert response.status_code == 404

"""POST /v1/proposals/<id>/banking-data: disbursement account or Pix key."""
import flask_smorest

from models.db.banking import BankDataSubmission
from models.domain.lifecycles import BankDataSubmissionState
from models.domain.statuses import Status
from models.services.banking import pix_validation as bank_validation
from models.services.banking import disbursement_data as banking
from models.services.banking.options import PixKey, parse_banking_data
from models.services.platform.unit_of_work import unit_of_work
from models.services.platform.wakeups import wakeups
from models.settings import current
from schemas.banking import BankingDataResultSchema, BankingDataSchema
from schemas.errors import ErrorSchema

from ..auth import owned_proposal
from ..errors import ApiError

blp = flask_smorest.Blueprint("banking_data", __name__, description="Banking data for disbursement")


def _answer(proposal_id: str, verdict: banking.Verdict | BankDataSubmission):
    if verdict.http_status != 200:
        raise ApiError(verdict.http_status, verdict.message, error_code=verdict.error_code)
    return {"message": verdict.message, "proposal_id": proposal_id, "status": verdict.result_status, "ok": verdict.ok}


@blp.route("/proposals/<uuid:proposal_id>/banking-data", methods=["POST"])
@blp.arguments(BankingDataSchema)
@blp.response(200, BankingDataResultSchema)
@blp.alt_response(400, schema=ErrorSchema, description="Invalid data, bank not allowed, key not validated, "
                  "or the status does not allow update")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
@blp.alt_response(503, schema=ErrorSchema, description="Pix directory unavailable or too slow; nothing saved")
def submit_banking_data(data, proposal_id):
    """Save the disbursement data. A Pix key is confirmed in the instant-payment directory first;
    an unconfirmed key answers 200 with ok false and PIX_KEY_CPF_MISMATCH or PIX_KEY_NOT_CONFIRMED."""
    proposal_id = str(proposal_id)
    with unit_of_work():
        proposal = owned_proposal(proposal_id, for_update=True)
        banking.ensure_status_allows(proposal)
        choice = parse_banking_data(data, proposal.cpf)
        if not isinstance(choice, PixKey):
            banking.apply(proposal, choice, source="http")
            return _answer(proposal_id, banking.Verdict(200, ok=True, result_status=Status.BANK_DATA_SUBMITTED.value))
        submission = bank_validation.submit_pix_key(proposal, choice)

    def decided() -> bool:
        return BankDataSubmission.get_by_id(submission.id).state != BankDataSubmissionState.PENDING

    wakeups.wait_until(decided, current().banking.pix_lookup_wait_seconds)
    if banking.abandon(submission.id):
        raise ApiError(503, "The instant-payment directory did not answer in time; nothing was saved, try again",
                       error_code="PIX_DIRECTORY_TIMEOUT")
    return _answer(proposal_id, BankDataSubmission.get_by_id(submission.id))

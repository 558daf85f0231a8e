"""POST /v1/proposals/<id>/banking-data: disbursement account or Pix key."""

from models import runtime
from models.services.banking import submission
from models.services.banking.disbursement_data import Verdict
from schemas.banking import BankingDataResultSchema, BankingDataSchema

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_BODY, PROPOSAL_NOT_FOUND, Blueprint
from ..errors import ApiError

blp = Blueprint("banking_data", __name__, description="Banking data for disbursement")


def _answer(proposal_id: str, verdict: Verdict) -> dict:
    if verdict.http_status != 200:
        raise ApiError(verdict.http_status, verdict.message, error_code=verdict.error_code)
    return {"message": verdict.message, "proposal_id": proposal_id, "status": verdict.result_status, "ok": verdict.ok}


@blp.route("/proposals/<uuid:proposal_id>/banking-data", methods=["POST"], endpoint="submit_banking_data")
@blp.arguments(BankingDataSchema)
@blp.response(200, BankingDataResultSchema)
@blp.errors(
    {
        400: INVALID_BODY + "; invalid combination of options, bank not allowed (BANK_NOT_ALLOWED), key not "
        "validated (PIX_KEY_NOT_VALIDATED), key's bank not allowed (PIX_KEY_BANK_NOT_ALLOWED), CNPJ key, or the "
        "status does not allow an update",
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND,
        503: "Pix directory unavailable or too slow; nothing saved",
    }
)
def submit_banking_data(data, proposal_id):
    """Save the disbursement data. A Pix key is confirmed in the instant-payment directory first;
    an unconfirmed key answers 200 with ok false and PIX_KEY_CPF_MISMATCH or PIX_KEY_NOT_CONFIRMED."""
    proposal_id = str(proposal_id)
    verdict = submission.submit_banking_data(
        current_origin(), proposal_id, data, wait_seconds=runtime.current().settings.banking.pix_lookup_wait_seconds
    )
    return _answer(proposal_id, verdict)

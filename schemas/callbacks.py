"""Bodies of the providers' callbacks (outside /v1) and of the sandbox signing page: every field
bounded by the column or the value set it ends in."""

from marshmallow import validate

from models.services.contract.signature import FINISHED, RESULT_FIELDS, STARTED
from schemas import edge
from schemas.credit import Body

WITHDRAWAL = "WITHDRAWAL"


def _results() -> dict:
    # The four checks of a finished signature as the provider names them, each optional.
    return {name: edge.Text(max_length=64, allow_none=True) for name in RESULT_FIELDS}


SignatureResults = Body.from_dict(_results(), name="SignatureResults")

ESignatureEvent = Body.from_dict(
    {
        "process_id": edge.Text(required=True, min_length=1, max_length=64),
        "event": edge.Text(required=True, max_length=32, validate=[validate.OneOf([STARTED, FINISHED])]),
        **_results(),
    },
    name="ESignatureEvent",
)


class FundingEvent(Body):
    event = edge.Text(required=True, max_length=32, validate=[validate.OneOf([WITHDRAWAL])])
    issuer_application_id = edge.Text(required=True, min_length=1, max_length=64)
    reason = edge.Text(max_length=500, lines=True, allow_none=True)

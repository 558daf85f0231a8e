"""GET /proposals/{id}/analysis-data: margin snapshot, engine result and consent evidence."""

from models.services.queries.records import analysis_data
from schemas.query_details import AnalysisDataSchema

from ..auth import current_origin
from ..blueprint import FORBIDDEN, PROPOSAL_NOT_FOUND, Blueprint

blp = Blueprint("analysis_data", __name__, description="Credit analysis evidence of a proposal")


@blp.route("/proposals/<proposal_id>/analysis-data", methods=["GET"], endpoint="get_analysis_data")
@blp.response(200, AnalysisDataSchema)
@blp.errors({403: FORBIDDEN, 404: PROPOSAL_NOT_FOUND})
def get_analysis_data(proposal_id):
    """Every analysis (with margin snapshot and engine result) and every consent, newest first."""
    return analysis_data(current_origin(), proposal_id)

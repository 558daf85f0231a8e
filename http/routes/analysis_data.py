"""GET /proposals/{id}/analysis-data: margin snapshot, engine result and consent evidence."""

from flask_smorest import Blueprint

from models.services.queries.records import analysis_data
from schemas.errors import ErrorSchema
from schemas.query_details import AnalysisDataSchema

from ..auth import current_origin

blp = Blueprint("analysis_data", __name__, description="Credit analysis evidence of a proposal")


@blp.route("/proposals/<proposal_id>/analysis-data", methods=["GET"])
@blp.response(200, AnalysisDataSchema)
@blp.alt_response(403, schema=ErrorSchema, description="proposal of another origin")
@blp.alt_response(404, schema=ErrorSchema, description="proposal not found")
def get_analysis_data(proposal_id):
    """Every analysis (with margin snapshot and engine result) and every consent, newest first."""
    return analysis_data(current_origin(), proposal_id)

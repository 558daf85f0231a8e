"""Read side of proposals: the filtered listing, statistics and the full detail of one proposal.

``/proposals/statistics`` is a static rule, which Werkzeug always prefers over the
``/proposals/<proposal_id>`` rule, so "statistics" is never taken for an id.
"""

from flask_smorest import Blueprint

from models.services.queries.detail import proposal_detail
from models.services.queries.listing import ListingRequest, list_proposals
from models.services.queries.statistics import statistics
from schemas.errors import ErrorSchema
from schemas.queries import ProposalListArgsSchema, ProposalListSchema
from schemas.query_details import ProposalDetailSchema, StatisticsArgsSchema, StatisticsSchema

from ..auth import current_origin

blp = Blueprint("proposals_query", __name__, description="Proposal listing, statistics and detail")


@blp.route("/proposals", methods=["GET"])
@blp.arguments(ProposalListArgsSchema, location="query", as_kwargs=True)
@blp.response(200, ProposalListSchema)
@blp.alt_response(400, schema=ErrorSchema, description="invalid filter, sort or pagination value")
def list_(**args):
    """The token's origin's proposals, filtered, sorted and paginated."""
    return list_proposals(current_origin(), ListingRequest(**args))


@blp.route("/proposals/statistics", methods=["GET"])
@blp.arguments(StatisticsArgsSchema, location="query", as_kwargs=True)
@blp.response(200, StatisticsSchema)
@blp.alt_response(400, schema=ErrorSchema, description="invalid date or range")
def proposal_statistics(created_from=None, created_to=None):
    """Counts by status, funnel conversion and amounts of the origin's proposals created in a range."""
    return statistics(current_origin(), created_from, created_to)


@blp.route("/proposals/<proposal_id>", methods=["GET"])
@blp.response(200, ProposalDetailSchema)
@blp.alt_response(403, schema=ErrorSchema, description="proposal of another origin")
@blp.alt_response(404, schema=ErrorSchema, description="proposal not found")
def detail(proposal_id):
    """Proposal, consent, offers, banking data (masked), contract, signature, disbursement, history."""
    return proposal_detail(current_origin(), proposal_id)

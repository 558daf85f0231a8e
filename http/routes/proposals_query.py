"""Read side of proposals: the filtered listing, statistics and the full detail of one proposal.

``/proposals/statistics`` is a static rule, which Werkzeug always prefers over the
``/proposals/<proposal_id>`` rule, so "statistics" is never taken for an id.
"""

from models.services.queries.detail import proposal_detail
from models.services.queries.listing import ListingRequest, list_proposals
from models.services.queries.statistics import statistics
from schemas.queries import ProposalListArgsSchema, ProposalListSchema
from schemas.query_details import ProposalDetailSchema, StatisticsArgsSchema, StatisticsSchema

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_QUERY, PROPOSAL_NOT_FOUND, Blueprint

blp = Blueprint("proposals_query", __name__, description="Proposal listing, statistics and detail")


@blp.route("/proposals", methods=["GET"], endpoint="list_proposals")
@blp.arguments(ProposalListArgsSchema, location="query", as_kwargs=True)
@blp.response(200, ProposalListSchema)
@blp.errors({400: INVALID_QUERY + "; INVALID_STATUS_FILTER (details.validCodes), INVALID_SORT, INVALID_DATE_RANGE"})
def list_(**args):
    """The token's origin's proposals, filtered, sorted and paginated."""
    return list_proposals(current_origin(), ListingRequest(**args))


@blp.route("/proposals/statistics", methods=["GET"], endpoint="get_proposal_statistics")
@blp.arguments(StatisticsArgsSchema, location="query", as_kwargs=True)
@blp.response(200, StatisticsSchema)
@blp.errors({400: INVALID_QUERY + "; INVALID_DATE_RANGE (created_from after created_to)"})
def proposal_statistics(created_from=None, created_to=None):
    """Counts by status, funnel conversion and amounts of the origin's proposals created in a range."""
    return statistics(current_origin(), created_from, created_to)


@blp.route("/proposals/<uuid:proposal_id>", methods=["GET"], endpoint="get_proposal")
@blp.response(200, ProposalDetailSchema)
@blp.errors({403: FORBIDDEN, 404: PROPOSAL_NOT_FOUND})
def detail(proposal_id):
    """Proposal, consent, offers, banking data (masked), contract, signature, disbursement, history."""
    return proposal_detail(current_origin(), str(proposal_id))

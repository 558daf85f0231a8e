"""GET /proposals/{id}/message-timeline: the SMS, messaging-app and email sends of a proposal."""

from models.services.queries.records import message_timeline
from schemas.query_details import MessageTimelineSchema

from ..auth import current_origin
from ..blueprint import FORBIDDEN, PROPOSAL_NOT_FOUND, Blueprint

blp = Blueprint("message_timeline", __name__, description="Messages sent for a proposal")


@blp.route("/proposals/<proposal_id>/message-timeline", methods=["GET"], endpoint="get_message_timeline")
@blp.response(200, MessageTimelineSchema)
@blp.errors({403: FORBIDDEN, 404: PROPOSAL_NOT_FOUND})
def get_message_timeline(proposal_id):
    """Channel, time and delivery status of each send, oldest first; message text (token) never shown."""
    return message_timeline(current_origin(), proposal_id)

"""GET /proposals/{id}/message-timeline: the SMS, messaging-app and email sends of a proposal."""

from flask_smorest import Blueprint

from models.services.queries.records import message_timeline
from schemas.errors import ErrorSchema
from schemas.query_details import MessageTimelineSchema

from ..auth import current_origin

blp = Blueprint("message_timeline", __name__, description="Messages sent for a proposal")


@blp.route("/proposals/<proposal_id>/message-timeline", methods=["GET"])
@blp.response(200, MessageTimelineSchema)
@blp.alt_response(403, schema=ErrorSchema, description="proposal of another origin")
@blp.alt_response(404, schema=ErrorSchema, description="proposal not found")
def get_message_timeline(proposal_id):
    """Channel, time and delivery status of each send, oldest first; message text (token) never shown."""
    return message_timeline(current_origin(), proposal_id)

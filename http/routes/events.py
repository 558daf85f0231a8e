"""GET /v1/events: the token's origin's status events in order, with the status webhook's body
(README, "Events feed")."""

from models import runtime
from models.domain import event_feed
from models.domain.errors import DomainError
from models.services.events.feed import list_events
from schemas.events import EventFeedSchema, EventsQuerySchema

from ..auth import current_origin
from ..blueprint import INVALID_QUERY, Blueprint

blp = Blueprint("events", __name__, description="Status events feed")


@blp.route("/events", methods=["GET"], endpoint="list_events")
@blp.arguments(EventsQuerySchema, location="query", as_kwargs=True)
@blp.response(200, EventFeedSchema)
@blp.errors({400: INVALID_QUERY + "; INVALID_CURSOR (`after` is not a cursor this feed returned)"})
def events(limit: int, after: str | None = None):
    """Every status change of the origin's proposals the status webhook announces, oldest first,
    kept `events.retention_days` (30) days, whether or not a webhook URL is set."""
    try:
        position = event_feed.decode_cursor(after) if after is not None else 0
    except event_feed.InvalidCursor:
        raise DomainError(
            "after: not a cursor this feed returned", error_code="INVALID_CURSOR", details={"field": "after"}
        ) from None
    return list_events(current_origin(), position, limit, events_settings=runtime.current().settings.events)

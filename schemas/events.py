"""The events feed (GET /v1/events): its query and its page, each event carrying the status
webhook's body exactly as the webhook sends it (``models.services.webhooks.status_events.event_body``)."""

from marshmallow import Schema, fields

from models.domain import event_feed
from models.services.queries.params import STATUS_CODES
from schemas import edge
from schemas.fields import Instant, Uuid


class EventsQuerySchema(Schema):
    after = fields.String(
        validate=edge.Pattern(event_feed.CURSOR_PATTERN, error="must be a cursor this feed returned"),
        metadata={
            "description": "Opaque cursor: the `next_cursor` (or an event's `cursor`) of an earlier page. "
            "Without it the feed starts at the oldest event kept. A cursor this feed did not hand out "
            "answers 400 INVALID_CURSOR."
        },
    )
    limit = edge.Integer(
        minimum=1,
        maximum=event_feed.MAX_LIMIT,
        query=True,
        load_default=event_feed.DEFAULT_LIMIT,
        metadata={"description": f"events per page, at most {event_feed.MAX_LIMIT}"},
    )


class EventOriginSchema(Schema):
    code = fields.String()
    name = fields.String()


class EventProposalDataSchema(Schema):
    cpf = fields.String()
    phone = fields.String(metadata={"description": "empty for a proposal that left CREATED without the contact step"})
    created_at = Instant()
    updated_at = Instant()


class EventStatusChangeSchema(Schema):
    old_status = fields.String(metadata={"enum": STATUS_CODES})
    new_status = fields.String(metadata={"enum": STATUS_CODES})


class StatusWebhookBodySchema(Schema):
    """The body of the status webhook (``proposal.status.changed``), field for field."""

    origin = fields.Nested(EventOriginSchema)
    timestamp = Instant(metadata={"description": "time of the change"})
    event_type = fields.String(metadata={"enum": ["proposal.status.changed"]})
    proposal_id = Uuid()
    proposal_data = fields.Nested(EventProposalDataSchema)
    status_change = fields.Nested(EventStatusChangeSchema)


class FeedEventSchema(Schema):
    position = fields.Integer(
        metadata={
            "description": "The event's place in this origin's feed, across all its proposals: 1, 2, 3... "
            "in the order events became visible; it never goes back"
        }
    )
    cursor = fields.String(metadata={"description": "Read on after this event: pass it as `after`"})
    sequence = fields.Integer(
        metadata={"description": "The proposal's status sequence, as in the webhook's X-Event-Sequence header"}
    )
    event = fields.Nested(StatusWebhookBodySchema)


class EventFeedSchema(Schema):
    data = fields.List(fields.Nested(FeedEventSchema), metadata={"description": "oldest first"})
    next_cursor = fields.String(
        allow_none=True,
        metadata={
            "description": "Pass it as `after` for the next page, or to poll for new events; null only "
            "when there is no event yet and no `after` was sent"
        },
    )
    has_more = fields.Boolean(metadata={"description": "true when more events follow this page now"})

"""The status-change event body (spec: Events), its delivery record (one per change) and the
per-proposal order: a later event waits while an earlier one of the same proposal is pending."""

from __future__ import annotations

from typing import NamedTuple

import peewee

from models.db import simple_statements
from models.db.compiled import Compiled
from models.db.partners import Partner
from models.db.proposals import Proposal, StatusChange
from models.db.webhooks import WebhookDelivery
from models.domain.clock import isoformat_z, now
from models.domain.lifecycles import FINAL_DELIVERY_STATUSES
from models.services.webhooks import deliveries

EVENT_TYPE = "proposal.status.changed"


# Every change but the creation is announced (proposal_status.record_creation): the creation has
# no previous status, and the spec types ``status_change.old_status`` as a status.
ANNOUNCED = StatusChange.old_status.is_null(False)


def event_body(change: StatusChange, proposal: Proposal, partner: Partner) -> dict:
    """Exactly the spec's fields, every one a string; ``timestamp`` and ``updated_at`` are the time
    of the change. ``phone`` is empty (never null) for a proposal whose customer never gave one:
    only a proposal that leaves CREATED without the contact step (it expires)."""
    return {
        "origin": {"code": partner.code, "name": partner.name},
        "timestamp": isoformat_z(change.changed_at),
        "event_type": EVENT_TYPE,
        "proposal_id": proposal.id,
        "proposal_data": {
            "cpf": proposal.cpf,
            "phone": proposal.phone or "",
            "created_at": isoformat_z(proposal.created_at),
            "updated_at": isoformat_z(change.changed_at),
        },
        "status_change": {"old_status": change.old_status, "new_status": change.new_status},
    }


# What an event needs of its change and proposal (``event_body``, the delivery's key): the
# proposal's other twenty columns, read and converted for every event, were about 4 % of the
# webhooks pool's CPU. The partner is read whole: its URL, authentication and secrets serve the
# attempt.
_CHANGE_COLUMNS = (
    StatusChange.id,
    StatusChange.proposal,
    StatusChange.sequence,
    StatusChange.old_status,
    StatusChange.new_status,
    StatusChange.changed_at,
)
_PROPOSAL_COLUMNS = (Proposal.id, Proposal.origin, Proposal.cpf, Proposal.phone, Proposal.created_at)


def _with_parties(query):
    """``query`` (of StatusChange) joined to the change's proposal and the proposal's partner."""
    return query.join(Proposal).join(
        Partner, peewee.JOIN.LEFT_OUTER, on=(Partner.code == Proposal.origin), attr="origin_partner"
    )


def _change_and_parties_query(status_change_id):
    return (
        _with_parties(StatusChange.select(*_CHANGE_COLUMNS, *_PROPOSAL_COLUMNS, Partner))
        .where(StatusChange.id == status_change_id)
        .limit(1)
    )


_CHANGE_AND_PARTIES: Compiled[StatusChange] = Compiled(_change_and_parties_query, int)
# The first run of an event checks the order before it inserts: the same read with that check as
# one more column, one round trip instead of two (about 7 statements per proposal: the events
# sent by a run of their own; a handed-over event is recorded without the check).
_CHANGE_PARTIES_AND_ORDER: Compiled[StatusChange] = Compiled(
    lambda status_change_id: _change_and_parties_query(status_change_id).select_extend(
        peewee.fn.EXISTS(
            _pending_before(StatusChange.proposal, StatusChange.sequence, StatusChange.alias("earlier"))
        ).alias("earlier_pending")
    ),
    int,
)


def _change_and_parties(
    status_change_id: int, *, check_order: bool = False
) -> tuple[StatusChange, Proposal, Partner] | None:
    """The change, its proposal and the proposal's partner, in one query; with ``check_order``
    the change carries ``earlier_pending`` too."""
    change = (_CHANGE_PARTIES_AND_ORDER if check_order else _CHANGE_AND_PARTIES).first(status_change_id)
    if change is None:  # the change (or its proposal) was removed after the message was sent
        return None
    return _parties_of(change)


def _parties_of(change: StatusChange) -> tuple[StatusChange, Proposal, Partner]:
    """A change read with its parties (``_with_parties``), split; the partner must exist."""
    partner = change.proposal.origin_partner
    if partner is None or partner.id is None:
        raise Partner.DoesNotExist(f"partner {change.proposal.origin} not found")
    return change, change.proposal, partner


class Recorded(NamedTuple):
    """A change's delivery row and its partner as they are now (its URL and secrets apply to this
    attempt). ``claimed``: this call inserted the row with its first attempt already claimed.
    ``behind``: this call inserted it and checked the order (``check_order``): whether an earlier
    event of the proposal was pending then (None when not checked here)."""

    delivery: WebhookDelivery
    partner: Partner
    claimed: bool = False
    behind: bool | None = None


def record(
    status_change_id: int, *, claim_lease_seconds: float | None = None, check_order: bool = False
) -> Recorded | None:
    """Create the delivery row for a change (idempotent: redelivery finds the existing row).

    With ``claim_lease_seconds``, a row this call inserts for a partner with a URL carries its
    first attempt's claim (``deliveries.claim``'s values: one attempt, the round started now, the
    lease), so the attempt needs no UPDATE of its own; with ``check_order`` too, only when no
    earlier event of the proposal is pending (``earlier_pending``, checked before the insert). A
    row found in place is returned as it is, unclaimed."""
    found = _change_and_parties(status_change_id, check_order=check_order)
    if found is None:
        return None
    return _record(*found, claim_lease_seconds=claim_lease_seconds, check_order=check_order)


def record_waiting(change: StatusChange, *, claim_lease_seconds: float) -> Recorded:
    """``record`` of the change ``next_waiting_change`` returned: it was read with its proposal and
    partner, so recording it is the INSERT alone."""
    return _record(*_parties_of(change), claim_lease_seconds=claim_lease_seconds)


def _record(
    change: StatusChange,
    proposal: Proposal,
    partner: Partner,
    *,
    claim_lease_seconds: float | None,
    check_order: bool = False,
) -> Recorded:
    key = f"{proposal.id}:{change.new_status}:{change.sequence}"
    delivery = WebhookDelivery(
        kind="status",
        partner_code=partner.code,
        proposal_id=proposal.id,
        idempotency_key=key,
        sequence=change.sequence,
        payload=event_body(change, proposal, partner),
        next_attempt_at=now(),
    )
    claim = claim_lease_seconds is not None and bool(partner.webhook_url)
    behind = None
    if claim and check_order:
        behind = bool(change.earlier_pending)  # read with the change, before this insert
        claim = not behind
    if claim and claim_lease_seconds is not None:
        deliveries.claim_unsaved(delivery, claim_lease_seconds)
    # INSERT ... ON CONFLICT DO NOTHING: a duplicate neither raises nor needs a savepoint.
    if simple_statements.insert_unless_present(WebhookDelivery, delivery.__data__):
        return Recorded(delivery, partner, claimed=claim, behind=behind)
    existing = WebhookDelivery.get(
        WebhookDelivery.kind == "status",
        WebhookDelivery.partner_code == partner.code,
        WebhookDelivery.idempotency_key == key,
    )
    return Recorded(existing, partner)


def record_event(status_change_id: int) -> WebhookDelivery | None:
    """Create the delivery row for a change (idempotent: redelivery finds the existing row)."""
    recorded = record(status_change_id)
    return recorded.delivery if recorded else None


def _final_delivery_of(proposal_id, sequence):
    """A final status delivery of the proposal's change at ``sequence`` (a subquery)."""
    return WebhookDelivery.select(WebhookDelivery.id).where(
        WebhookDelivery.kind == "status",
        WebhookDelivery.proposal_id == proposal_id,
        WebhookDelivery.sequence == sequence,
        WebhookDelivery.status.in_(list(FINAL_DELIVERY_STATUSES)),
    )


def _pending_before(proposal_id, sequence, changes=StatusChange):
    """The announced changes of ``proposal_id`` before ``sequence`` that have no final delivery
    yet (a query of their ids; the arguments may be columns of an outer query, ``changes`` an
    alias of the table then)."""
    return changes.select(changes.id).where(
        changes.proposal == proposal_id,
        changes.sequence < sequence,
        changes.old_status.is_null(False),  # ANNOUNCED, on this alias
        ~peewee.fn.EXISTS(_final_delivery_of(proposal_id, changes.sequence)),
    )


_EARLIER_PENDING: Compiled[StatusChange] = Compiled(
    lambda proposal_id, sequence: _pending_before(proposal_id, sequence).limit(1), str, int
)


def earlier_pending(delivery: WebhookDelivery) -> bool:
    """True while an announced change of the same proposal with a lower sequence has no final
    delivery yet (its message may not even have run: the change row is what counts). One query."""
    return _EARLIER_PENDING.exists(delivery.proposal_id, delivery.sequence)


def predecessor_unfinished_query(proposal_id, previous):
    """The announced change at ``previous`` when it has no final delivery (a query of its id; see
    ``predecessor_unfinished``; ``proposal_status`` runs it as a column of the change's INSERT)."""
    return (
        StatusChange.select(StatusChange.id)
        .where(
            StatusChange.proposal == proposal_id,
            StatusChange.sequence == previous,
            ANNOUNCED,
            ~peewee.fn.EXISTS(_final_delivery_of(proposal_id, previous)),
        )
        .limit(1)
    )


_PREDECESSOR_UNFINISHED: Compiled[StatusChange] = Compiled(predecessor_unfinished_query, str, int)


def predecessor_unfinished(proposal_id: str, sequence: int) -> bool:
    """True while the announced change right before ``sequence`` has no final delivery (or none
    recorded yet). Its end (``status_delivery._finish``) then hands over the change at ``sequence``,
    so that change needs no message of its own: a message would only run to find it held behind
    this one. One query."""
    return _PREDECESSOR_UNFINISHED.exists(proposal_id, sequence - 1)


def _next_waiting(proposal_id, sequence):
    later = StatusChange.alias("later")
    following = later.select(peewee.fn.MIN(later.sequence)).where(
        later.proposal == proposal_id, later.sequence > sequence
    )
    return (
        # The waiting event's delivery row, when it has one (a run of its own recorded it), and
        # what recording it needs (``record``'s read), fresh in the same round trip.
        _with_parties(StatusChange.select(*_CHANGE_COLUMNS, *_PROPOSAL_COLUMNS, Partner, WebhookDelivery.id))
        .switch(StatusChange)
        .join(
            WebhookDelivery,
            peewee.JOIN.LEFT_OUTER,
            on=(
                (WebhookDelivery.kind == "status")
                & (WebhookDelivery.proposal_id == StatusChange.proposal)
                & (WebhookDelivery.sequence == StatusChange.sequence)
            ),
            attr="waiting_delivery",
        )
        .where(
            StatusChange.proposal == proposal_id,
            StatusChange.sequence == following,
            WebhookDelivery.id.is_null()
            | (WebhookDelivery.status.not_in(list(FINAL_DELIVERY_STATUSES)) & (WebhookDelivery.attempts == 0)),
        )
        .limit(1)
    )


_NEXT_WAITING: Compiled[StatusChange] = Compiled(_next_waiting, str, int)


def next_waiting_change(delivery: WebhookDelivery) -> StatusChange | None:
    """The change right after ``delivery``'s when it still waits for a first attempt: its event is
    held (recorded, never attempted), or not recorded at all (``proposal_status.move`` sent it no
    message because this one was unfinished: see ``predecessor_unfinished``). One already
    attempted is not handed over: its own run claimed it (it is being sent, or retrying on its
    schedule). The change carries ``recorded_delivery_id`` (None when not recorded) and its
    proposal and partner, for ``record_waiting``."""
    change = _NEXT_WAITING.first(delivery.proposal_id, delivery.sequence)
    if change is not None:
        recorded = getattr(change, "waiting_delivery", None)  # None or all-NULL: the outer join found none
        change.recorded_delivery_id = recorded.id if recorded is not None else None
    return change


def change_of(delivery: WebhookDelivery) -> StatusChange:
    """The status change a delivery announces."""
    return StatusChange.get(StatusChange.proposal == delivery.proposal_id, StatusChange.sequence == delivery.sequence)

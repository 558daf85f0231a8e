"""How long an offer lasts and whether it can still be taken.

One rule for every reader (the offer body of the analysis, simulation and detail routes,
pre-accept and contract generation):

* an offer expires ``validity_days`` after it was made; it is EXPIRED from that instant on;
* an offer replaced by a newer analysis or simulation is SUPERSEDED, except the proposal's
  selected offer: a simulation keeps it selectable until the customer pre-accepts another one;
* a superseded offer reads SUPERSEDED even once its time also ran out (replacement came first);
* otherwise it is ACTIVE, the only status in which it is available.

Status and availability are decided when read, never stored: the stored offer keeps the values it
had when made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from models.domain.clock import to_utc
from models.domain.errors import ValidationFailed


class OfferStatus(StrEnum):
    """``status`` of the spec's Offer object."""

    ACTIVE = "ACTIVE"
    EXPIRED = "EXPIRED"
    SUPERSEDED = "SUPERSEDED"


@dataclass(frozen=True)
class OfferAvailability:
    """The offer's ``status`` and ``is_available`` at one instant."""

    status: OfferStatus

    @property
    def is_available(self) -> bool:
        return self.status is OfferStatus.ACTIVE


def offer_expiry(created_at: datetime, validity_days: int) -> datetime:
    """Instant an offer made at ``created_at`` stops being available."""
    return to_utc(created_at) + timedelta(days=validity_days)


def offer_availability(
    expires_at: datetime, superseded_at: datetime | None, *, is_selected: bool, now: datetime
) -> OfferAvailability:
    """The offer's status at ``now`` (see the module docstring for the rule)."""
    if superseded_at is not None and not is_selected:
        return OfferAvailability(OfferStatus.SUPERSEDED)
    if to_utc(now) >= to_utc(expires_at):
        return OfferAvailability(OfferStatus.EXPIRED)
    return OfferAvailability(OfferStatus.ACTIVE)


_REFUSALS = {
    OfferStatus.SUPERSEDED: ("OFFER_NOT_AVAILABLE", "The offer was replaced by a newer analysis or simulation"),
    OfferStatus.EXPIRED: ("OFFER_EXPIRED", "The offer has expired; simulate or analyse again"),
}


def ensure_available(availability: OfferAvailability) -> None:
    """400 naming ``selected_offer_id`` (OFFER_NOT_AVAILABLE or OFFER_EXPIRED) unless the offer is available."""
    if availability.is_available:
        return
    code, message = _REFUSALS[availability.status]
    raise ValidationFailed(message, error_code=code, details={"field": "selected_offer_id"})

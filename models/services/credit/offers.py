"""Offers as stored and served: created from domain offer dicts, superseded by newer ones."""

from __future__ import annotations

from datetime import datetime

from models.db.analysis import CreditAnalysis, Offer
from models.db.compiled import Compiled
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.offer_availability import OfferAvailability, offer_availability
from models.services.credit.wire import plain
from models.services.platform.proposal_clock import proposal_now


def store_offers(
    proposal: Proposal,
    offers: list[dict],
    *,
    source: str,
    analysis: CreditAnalysis | None = None,
    keep_id: str | None = None,
) -> list[Offer]:
    """Supersede the proposal's active offers (except ``keep_id``) and store ``offers``."""
    stamp = proposal_now(proposal)
    if keep_id:
        _SUPERSEDE_ALL_BUT.execute(stamp, proposal.id, keep_id)
    else:
        _SUPERSEDE.execute(stamp, proposal.id)
    rows = []  # each row's INSERT is rendered once per shape already (models/db/simple_statements.py)
    for offer in offers:
        rows.append(
            Offer.create(
                id=offer["id"],
                proposal=proposal.id,
                analysis=analysis.id if analysis else None,
                source=source,
                kind=offer["kind"],
                principal_amount=offer["principal_amount"],
                installments=offer["installments"],
                installment_amount=offer["installment_amount"],
                interest_rate=offer["interest_rate"],
                expires_at=datetime.fromisoformat(offer["expires_at"].replace("Z", "+00:00")),
                payload=plain(offer),
                created_at=stamp,
            )
        )
    return rows


def _supersede(at, proposal_id):
    return Offer.update(superseded_at=at).where(Offer.proposal == proposal_id, Offer.superseded_at.is_null())


# store_offers' two UPDATEs (with or without an offer kept), rendered once (models/db/compiled.py).
_SUPERSEDE: Compiled[Offer] = Compiled(_supersede, Offer.superseded_at, str)
_SUPERSEDE_ALL_BUT: Compiled[Offer] = Compiled(
    lambda at, proposal_id, keep_id: _supersede(at, proposal_id).where(Offer.id != keep_id),
    Offer.superseded_at,
    str,
    str,
)


def availability(row: Offer, selected_offer_id: str | None, at: datetime | None = None) -> OfferAvailability:
    """The offer's status now (or ``at``: its proposal's now, ``proposal_clock.proposal_now``),
    ``selected_offer_id`` being its proposal's selected offer."""
    return offer_availability(
        row.expires_at, row.superseded_at, is_selected=row.id == selected_offer_id, now=at or now()
    )


def current_offer(row: Offer | None, *, selected_offer_id: str | None, at: datetime | None = None) -> dict | None:
    """The offer as stored with its ``status`` and ``is_available`` as of now, or ``at`` (its
    proposal's now) (None stays None).

    Every route serving offers (analysis, simulation, detail) reads them here, so an expired or
    replaced offer is never served as it was at creation; schemas.offers.OfferSchema serializes it.
    """
    if row is None:
        return None
    state = availability(row, selected_offer_id, at)
    return {**row.payload, "status": state.status, "is_available": state.is_available}


def analysis_offers(analysis: CreditAnalysis) -> tuple[Offer | None, Offer | None]:
    """(standard, insured) offers created by ``analysis``."""
    rows = _OFFERS_OF_ANALYSIS.all(analysis.id)
    standard = next((r for r in rows if r.kind == "standard"), None)
    insured = next((r for r in rows if r.kind == "insured"), None)
    return standard, insured


# Read by every finished analysis's answer: rendered once (models/db/compiled.py).
_OFFERS_OF_ANALYSIS: Compiled[Offer] = Compiled(
    lambda analysis_id: Offer.select().where(Offer.analysis == analysis_id, Offer.source == "analysis"), str
)

"""Offers as stored and served: created from domain offer dicts, superseded by newer ones."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from models.db.analysis import CreditAnalysis, Offer
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.offer_availability import OfferAvailability, offer_availability
from models.services.credit.wire import plain

# Keys of the domain dict that stay internal (kind is the Offer row's column; the breakdown is
# kept in the stored payload for the contract, not repeated in every API answer).
_INTERNAL = ("kind", "cost_breakdown")
# The spec's field order (stored payloads come back with sorted keys).
_ORDER = (
    "id",
    "proposal_id",
    "offer_type",
    "status",
    "description",
    "principal_amount",
    "interest_rate",
    "annual_interest_rate",
    "installments",
    "installment_amount",
    "total_amount",
    "iof_amount",
    "tac_amount",
    "insurance_amount",
    "first_due_date",
    "final_due_date",
    "expires_at",
    "calculation_details",
    "terms_and_conditions",
    "priority",
    "is_available",
    "created_at",
    "updated_at",
    "cet",
)


def store_offers(
    proposal: Proposal,
    offers: list[dict],
    *,
    source: str,
    analysis: CreditAnalysis | None = None,
    keep_id: str | None = None,
) -> list[Offer]:
    """Supersede the proposal's active offers (except ``keep_id``) and store ``offers``."""
    stamp = now()
    query = Offer.update(superseded_at=stamp).where(Offer.proposal == proposal.id, Offer.superseded_at.is_null())
    if keep_id:
        query = query.where(Offer.id != keep_id)
    query.execute()
    rows = []
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


def availability(row: Offer, selected_offer_id: str | None, at: datetime | None = None) -> OfferAvailability:
    """The offer's status now (or ``at``), ``selected_offer_id`` being its proposal's selected offer."""
    return offer_availability(
        row.expires_at, row.superseded_at, is_selected=row.id == selected_offer_id, now=at or now()
    )


def offer_body(row: Offer | None, *, selected_offer_id: str | None) -> dict | None:
    """The spec's Offer object for ``row`` (None stays None), status and is_available as of now.

    Every route serving offers (analysis, simulation, detail) builds them here.
    """
    if row is None:
        return None
    payload = dict(row.payload)
    state = availability(row, selected_offer_id)
    payload["status"], payload["is_available"] = state.status, state.is_available
    body = {key: payload[key] for key in _ORDER if key in payload}
    body.update({k: v for k, v in payload.items() if k not in body and k not in _INTERNAL})
    return body


def summary(row: Offer) -> dict:
    """``selected_offer`` summary: id, principal_amount, installments, installment_amount."""
    return {
        "id": row.id,
        "principal_amount": float(row.principal_amount),
        "installments": row.installments,
        "installment_amount": float(Decimal(row.installment_amount)),
    }


def analysis_offers(analysis: CreditAnalysis) -> tuple[Offer | None, Offer | None]:
    """(standard, insured) offers created by ``analysis``."""
    rows = list(Offer.select().where(Offer.analysis == analysis.id, Offer.source == "analysis"))
    standard = next((r for r in rows if r.kind == "standard"), None)
    insured = next((r for r in rows if r.kind == "insured"), None)
    return standard, insured

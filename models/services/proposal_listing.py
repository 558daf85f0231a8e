"""GET /proposals: filters, sort and pagination over one origin's proposals.

Every query starts with ``origin = <token's origin>``, so the composite (origin, ...) indexes and
the pg_trgm indexes (models/db/indexes.py) serve it. Ties in the sort are broken by id so that
pages never overlap or skip a row.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

from peewee import fn

from models.db.proposals import Proposal
from models.services import query_params as qp
from models.services.proposal_views import proposal_item, selected_offers_of

TEXT_FILTERS = ("cpf", "full_name", "email", "phone")


@dataclass
class ListingRequest:
    """Raw listing parameters as received (already type-checked by the request schema)."""

    page: int = 1
    limit: int = 10
    cpf: str | None = None
    full_name: str | None = None
    email: str | None = None
    phone: str | None = None
    status: str | None = None
    bank_code: str | None = None
    created_from: date | None = None
    created_to: date | None = None
    updated_from: date | None = None
    updated_to: date | None = None
    sort: str | None = None


def _conditions(origin: str, request: ListingRequest) -> tuple[list, dict]:
    """WHERE terms and the echo of the filters actually applied."""
    terms, echo = [Proposal.origin == origin], {}
    for name in TEXT_FILTERS:
        value = qp.clean_text(getattr(request, name))
        if value is not None:
            # contains() is ILIKE '%value%' with LIKE wildcards escaped (LIKE on SQLite).
            terms.append(getattr(Proposal, name).contains(value))
            echo[name] = value
    statuses = qp.parse_statuses(request.status)
    if statuses:
        terms.append(Proposal.status.in_(statuses))
        echo["status"] = statuses
    bank_code = qp.clean_text(request.bank_code)
    if bank_code is not None:
        bank_code = bank_code.zfill(3)  # COMPE codes are stored with the leading zero
        terms.append(Proposal.bank_code == bank_code)
        echo["bank_code"] = bank_code
    for column, name in ((Proposal.created_at, "created"), (Proposal.updated_at, "updated")):
        first, last = getattr(request, f"{name}_from"), getattr(request, f"{name}_to")
        start, end = qp.day_range(first, last, field=name)
        if start is not None:
            terms.append(column >= start)
            echo[f"{name}_from"] = first.isoformat()
        if end is not None:
            terms.append(column < end)
            echo[f"{name}_to"] = last.isoformat()
    return terms, echo


def list_proposals(origin: str, request: ListingRequest) -> dict:
    """The whole GET /proposals body: ``data``, ``pagination`` and ``filters``."""
    terms, echo = _conditions(origin, request)
    sort_field, direction = qp.parse_sort(request.sort)
    column = getattr(Proposal, sort_field)
    order = (column.asc(), Proposal.id.asc()) if direction == "asc" else (column.desc(), Proposal.id.desc())
    offset = (request.page - 1) * request.limit
    rows = list(Proposal.select().where(*terms).order_by(*order).limit(request.limit).offset(offset))
    total = _total(terms, offset, len(rows), request.limit)
    offers = selected_offers_of(rows)
    total_pages = math.ceil(total / request.limit) if total else 0
    echo["sort"] = f"{sort_field}:{direction}"
    return {
        "data": [proposal_item(p, offers.get(p.selected_offer_id)) for p in rows],
        "pagination": {"page": request.page, "limit": request.limit, "total": total, "totalPages": total_pages,
                       "hasNext": request.page < total_pages, "hasPrev": request.page > 1},
        "filters": echo,
    }


def _total(terms: list, offset: int, fetched: int, limit: int) -> int:
    """Row count of the filtered set; skipped when the page itself proves it (a short page)."""
    if 0 < fetched < limit or (fetched == 0 and offset == 0):
        return offset + fetched
    return Proposal.select(fn.COUNT(Proposal.id)).where(*terms).scalar() or 0

"""GET /proposals: filters, sort and pagination over one origin's proposals.

Every query starts with ``origin = <token's origin>``, so the composite (origin, ...) indexes and
the pg_trgm indexes (models/db/indexes.py) serve it. Ties in the sort are broken by id so that
pages never overlap or skip a row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

from peewee import OP, SQL, Expression, NodeList, Value, fn

from models.db.database import is_postgres
from models.db.proposal_counts import counted_total
from models.db.proposals import Proposal
from models.services.queries import params as qp
from models.services.queries.views import proposal_item, selected_offers_of

TEXT_FILTERS = ("cpf", "full_name", "email", "phone")
# Columns whose stored form has one case only (digits, '+', full_name upper-cased at creation,
# email lower-cased at contact): a case-sensitive LIKE on them is several times cheaper than ILIKE
# on PostgreSQL.
ONE_CASE = {"cpf": str, "phone": str, "full_name": str.upper, "email": str.lower}


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
            terms.append(_contains(name, value))
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


def _contains(name: str, value: str):
    """``column LIKE '%value%'`` (wildcards in ``value`` escaped), case-insensitive where needed."""
    column = getattr(Proposal, name)
    if name in ONE_CASE:
        value = ONE_CASE[name](value)
    if name not in ONE_CASE or not is_postgres():
        return column.contains(value)  # ILIKE on PostgreSQL; LIKE (ASCII case-insensitive) on SQLite
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = NodeList((Value(f"%{escaped}%", converter=False), SQL("ESCAPE"), Value("\\", converter=False)))
    return Expression(column, OP.LIKE, pattern)


def list_proposals(origin: str, request: ListingRequest) -> dict:
    """The whole GET /proposals body: ``data``, ``pagination`` and ``filters``."""
    terms, echo = _conditions(origin, request)
    sort_field, direction = qp.parse_sort(request.sort)
    column = getattr(Proposal, sort_field)
    order = (column.asc(), Proposal.id.asc()) if direction == "asc" else (column.desc(), Proposal.id.desc())
    offset = (request.page - 1) * request.limit
    rows = list(Proposal.select().where(*terms).order_by(*order).limit(request.limit).offset(offset))
    total = _total(origin, echo, terms, offset, len(rows), request.limit)
    offers = selected_offers_of(rows)
    total_pages = math.ceil(total / request.limit) if total else 0
    echo["sort"] = f"{sort_field}:{direction}"
    return {
        "data": [proposal_item(p, offers.get(p.selected_offer_id)) for p in rows],
        "pagination": {
            "page": request.page,
            "limit": request.limit,
            "total": total,
            "totalPages": total_pages,
            "hasNext": request.page < total_pages,
            "hasPrev": request.page > 1,
        },
        "filters": echo,
    }


def _total(origin: str, echo: dict, terms: list, offset: int, fetched: int, limit: int) -> int:
    """Row count of the filtered set: the page itself proves it when short; the per-status
    counters answer the unfiltered and status-only listings on PostgreSQL; else count(*)."""
    if 0 < fetched < limit or (fetched == 0 and offset == 0):
        return offset + fetched
    if is_postgres() and set(echo) <= {"status"}:
        return counted_total(origin, echo.get("status", []))
    return Proposal.select(fn.COUNT(SQL("*"))).where(*terms).scalar() or 0  # count(*): index-only where possible

"""GET /proposals/statistics: counts by status, funnel conversion and amounts for one origin.

The population is the origin's proposals created in the requested Sao Paulo days (inclusive;
no bound means no limit on that side). A funnel step counts the proposals that ever reached it,
read from the status history, so a proposal that later expired or was canceled still counts for
the steps it passed. Conversion ratios are in [0, 1], four decimals; 0 when the base is empty.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from peewee import Case, fn

from models.db.contracts import Contract
from models.db.proposals import Proposal, StatusChange
from models.domain.statuses import Status as S
from models.services import query_params as qp

FUNNEL: list[tuple[str, tuple[S, ...]]] = [
    ("CREATED", (S.CREATED,)),
    ("TOKEN_VALIDATED", (S.TOKEN_VALIDATED,)),
    ("CREDIT_ANALYSIS", (S.CREDIT_ANALYSIS_IN_PROGRESS,)),
    ("OFFERS_RECEIVED", (S.CREDIT_CHECK_COMPLETED, S.OFFERS_RECEIVED)),
    ("PRE_ACCEPTED", (S.PRE_ACCEPTED,)),
    ("BANK_DATA_SUBMITTED", (S.BANK_DATA_SUBMITTED,)),
    ("CONTRACT_GENERATED", (S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE)),
    ("SIGNED", (S.SIGNED,)),
    ("DISBURSED", (S.DISBURSED,)),
]
ZERO = Decimal("0.00")


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _population(origin: str, first: date | None, last: date | None) -> list:
    start, end = qp.day_range(first, last, field="created")
    terms = [Proposal.origin == origin]
    if start is not None:
        terms.append(Proposal.created_at >= start)
    if end is not None:
        terms.append(Proposal.created_at < end)
    return terms


def _funnel(terms: list, total: int) -> list[dict]:
    step_of = Case(StatusChange.new_status, [(s.value, name) for name, statuses in FUNNEL[1:] for s in statuses])
    rows = (StatusChange.select(step_of.alias("step"), fn.COUNT(StatusChange.proposal.distinct()).alias("n"))
            .join(Proposal).where(*terms, step_of.is_null(False)).group_by(step_of).tuples())
    reached = dict(rows)
    reached["CREATED"] = total  # every proposal of the population was created
    steps, previous = [], total
    for name, _ in FUNNEL:
        count = int(reached.get(name, 0))
        steps.append({"step": name, "count": count, "conversion_from_previous": _ratio(count, previous),
                      "conversion_from_start": _ratio(count, total)})
        previous = count
    return steps


def _amounts(terms: list) -> dict:
    def bucket(*extra) -> dict:
        count, principal, paid = (Contract.select(fn.COUNT(Contract.id), fn.SUM(Contract.principal_amount),
                                                  fn.SUM(Contract.disbursement_amount))
                                  .join(Proposal).where(*terms, *extra).tuples().get())
        return {"count": count or 0, "principal_amount": Decimal(principal or 0).quantize(ZERO),
                "disbursement_amount": Decimal(paid or 0).quantize(ZERO)}

    return {"contracts": bucket(), "signed": bucket(Contract.signed_at.is_null(False)),
            "disbursed": bucket(Contract.disbursement_paid_at.is_null(False))}


def statistics(origin: str, first: date | None, last: date | None) -> dict:
    """The statistics document of ``origin`` for proposals created in [first, last] (local days)."""
    terms = _population(origin, first, last)
    by_status = dict.fromkeys(qp.STATUS_CODES, 0)
    for status, count in (Proposal.select(Proposal.status, fn.COUNT(Proposal.id)).where(*terms)
                          .group_by(Proposal.status).tuples()):
        by_status[status] = count
    total = sum(by_status.values())
    return {
        "origin": origin,
        "period": {"created_from": first.isoformat() if first else None,
                   "created_to": last.isoformat() if last else None, "timezone": "America/Sao_Paulo"},
        "total": total,
        "by_status": by_status,
        "funnel": _funnel(terms, total),
        "amounts": _amounts(terms),
    }

"""GET /proposals/statistics: counts by status, funnel conversion and amounts for one origin.

The population is the origin's proposals created in the requested Sao Paulo days (inclusive;
no bound means no limit on that side). Conversion ratios are in [0, 1], four decimals; 0 when the
base is empty.

Funnel: a proposal counts for every step up to the furthest one its current status implies
(``models.domain.funnel``). An EXPIRED proposal counts up to the step of the status it expired from
(read from its EXPIRED history row). This reads the status counts the listing indexes already serve
instead of aggregating the whole status history (seconds at 200,000 proposals); a proposal sent
back to a new analysis from a later step is counted at its current step.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from peewee import SQL, Case, fn

from models.db.contracts import Contract
from models.db.proposals import Proposal, StatusChange
from models.domain.funnel import FUNNEL_STEPS, funnel_step
from models.domain.statuses import Status as S
from models.services.queries import params as qp

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


def _expired_from(terms: list) -> dict[str, int]:
    """How many EXPIRED proposals of the population expired from each status."""
    rows = (
        StatusChange.select(StatusChange.old_status, fn.COUNT(StatusChange.id))
        .join(Proposal)
        .where(*terms, Proposal.status == S.EXPIRED.value, StatusChange.new_status == S.EXPIRED.value)
        .group_by(StatusChange.old_status)
        .tuples()
    )
    return dict(rows)


def _funnel(terms: list, by_status: dict[str, int]) -> list[dict]:
    furthest = [0] * len(FUNNEL_STEPS)  # proposals whose furthest step is i
    for status, count in by_status.items():
        step = funnel_step(status)
        if step is not None:
            furthest[step] += count
    expired = _expired_from(terms) if by_status.get(S.EXPIRED.value) else {}
    for status, count in expired.items():
        furthest[funnel_step(status) or 0] += count
    furthest[0] += by_status.get(S.EXPIRED.value, 0) - sum(expired.values())  # no history row: created only
    steps, previous = [], None
    for index, name in enumerate(FUNNEL_STEPS):
        count = sum(furthest[index:])
        previous = count if previous is None else previous
        steps.append(
            {
                "step": name,
                "count": count,
                "conversion_from_previous": _ratio(count, previous),
                "conversion_from_start": _ratio(count, sum(furthest)),
            }
        )
        previous = count
    return steps


def _amounts(terms: list) -> dict:
    """Contracts of the population: all, signed, disbursed (one pass with conditional sums)."""

    def when(condition, value):
        return fn.SUM(Case(None, [(condition, value)], 0))

    signed, paid = Contract.signed_at.is_null(False), Contract.disbursement_paid_at.is_null(False)
    row = (
        Contract.select(
            fn.COUNT(SQL("*")),
            fn.SUM(Contract.principal_amount),
            fn.SUM(Contract.disbursement_amount),
            when(signed, 1),
            when(signed, Contract.principal_amount),
            when(signed, Contract.disbursement_amount),
            when(paid, 1),
            when(paid, Contract.principal_amount),
            when(paid, Contract.disbursement_amount),
        )
        .join(Proposal)
        .where(*terms)
        .tuples()
        .get()
    )

    def bucket(count, principal, disbursed) -> dict:
        return {
            "count": int(count or 0),
            "principal_amount": Decimal(principal or 0).quantize(ZERO),
            "disbursement_amount": Decimal(disbursed or 0).quantize(ZERO),
        }

    return {"contracts": bucket(*row[0:3]), "signed": bucket(*row[3:6]), "disbursed": bucket(*row[6:9])}


def statistics(origin: str, first: date | None, last: date | None) -> dict:
    """The statistics document of ``origin`` for proposals created in [first, last] (local days)."""
    terms = _population(origin, first, last)
    by_status = dict.fromkeys(qp.STATUS_CODES, 0)
    for status, count in (
        Proposal.select(Proposal.status, fn.COUNT(SQL("*"))).where(*terms).group_by(Proposal.status).tuples()
    ):
        by_status[status] = count
    total = sum(by_status.values())
    return {
        "origin": origin,
        "period": {
            "created_from": first,
            "created_to": last,
            "timezone": "America/Sao_Paulo",
        },
        "total": total,
        "by_status": by_status,
        "funnel": _funnel(terms, by_status),
        "amounts": _amounts(terms),
    }

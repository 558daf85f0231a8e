"""POST /proposals/start: create, return the active proposal, or block (spec decision order)."""

from __future__ import annotations

from datetime import date

from models.db.compiled import Compiled
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.domain.errors import DomainError
from models.domain.start_decision import BLOCK, CREATE, CustomerHistory, ProposalSnapshot, decide_start
from models.domain.statuses import CONTRACT_IN_FORCE_STATUSES, Status
from models.external.collections import CollectionsPort, CollectionsUnavailable
from models.services.credit.products import product_id_for
from models.services.lifecycle.facts import limits
from models.services.lifecycle.sweep import settle_customer
from models.services.platform.locks import lock_customer
from models.services.platform.proposal_status import record_creation
from models.services.platform.unit_of_work import unit_of_work
from models.settings import ContractSettings, CreditSettings, LifecycleSettings, ProductsSettings


class StartBlocked(DomainError):
    """409 with the spec's extra body fields (proposal_id, status, longest_overdue_days)."""

    default_http_status = 409

    def __init__(self, message: str, error_code: str, **extra) -> None:
        super().__init__(message, error_code=error_code, http_status=409)
        self.extra = {k: v for k, v in extra.items() if v is not None}


def _snapshots(cpf: str) -> list[ProposalSnapshot]:
    """Every proposal of the CPF, of every origin, newest first: the decision needs only their
    statuses (a contract abandoned by the watchdog left its proposal in BANK_DATA_SUBMITTED)."""
    return [ProposalSnapshot(id_, Status(status), origin) for id_, status, origin in _SNAPSHOTS.all(cpf)]


# Every start runs it: rendered once (models/db/compiled.py), the three columns the decision reads.
_SNAPSHOTS: Compiled[tuple] = Compiled(
    lambda cpf: (
        Proposal.select(Proposal.id, Proposal.status, Proposal.origin)
        .where(Proposal.cpf == cpf)
        .order_by(Proposal.created_at.desc())
        .tuples()
    ),
    str,
)


def _overdue_days(cpf: str, partner: Partner, collections: CollectionsPort) -> int:
    # Only asked when it matters (re-contracting on and a contract in force): the collections
    # system is an external call and the decision ignores it otherwise. The CPF's proposals are
    # read (outside the lock) only when the partner re-contracts.
    if not partner.recontracting_enabled or not any(s.status in CONTRACT_IN_FORCE_STATUSES for s in _snapshots(cpf)):
        return 0
    try:
        return collections.longest_overdue_days(cpf)
    except CollectionsUnavailable:
        raise DomainError(
            "Overdue-installment data is temporarily unavailable; try again shortly",
            error_code="COLLECTIONS_UNAVAILABLE",
            http_status=503,
        ) from None


def start_proposal(
    partner: Partner,
    cpf: str,
    full_name: str,
    birth_date: date,
    *,
    collections: CollectionsPort,
    products_settings: ProductsSettings,
    lifecycle_settings: LifecycleSettings,
    credit_settings: CreditSettings,
    contract_settings: ContractSettings,
) -> tuple[Proposal, bool]:
    """The proposal to answer ``partner`` (the origin, as the request's bearer check read it) with
    and whether it was created now; raises StartBlocked.
    ``collections`` answers the overdue days of the re-contracting rule; the new proposal's product
    comes from ``products_settings``; the lifecycle limits from the other three sections.

    The decision is taken again under a per-CPF lock inside the transaction that creates the
    proposal, so two simultaneous starts for one CPF cannot both create one. Only the external
    overdue lookup runs before the lock. Under the lock, every proposal of the CPF whose deadline
    has come is first moved through its exit (README "Lifecycle"): a proposal that can no longer
    move (a dead analysis failure, lapsed offers) is EXPIRED, so it is neither returned nor
    blocking. A failure the retry route can still take is alive: it is returned to its origin.
    """
    overdue = _overdue_days(cpf, partner, collections)
    with unit_of_work():
        lock_customer(cpf)
        settle_customer(
            cpf,
            limits(
                lifecycle_settings=lifecycle_settings,
                credit_settings=credit_settings,
                contract_settings=contract_settings,
            ),
        )
        history = CustomerHistory(
            proposals=_snapshots(cpf), recontracting_enabled=partner.recontracting_enabled, longest_overdue_days=overdue
        )
        decision = decide_start(history, partner.code)
        if decision.action == BLOCK:
            raise StartBlocked(
                decision.message,
                decision.error_code,
                proposal_id=decision.proposal_id,
                status=decision.status.value if decision.status else None,
                longest_overdue_days=decision.longest_overdue_days,
            )
        if decision.action != CREATE:
            return Proposal.get_by_id(decision.existing_id), False
        proposal = Proposal.create(
            origin=partner.code,
            product_id=product_id_for(partner, products_settings=products_settings),
            cpf=cpf,
            full_name=full_name.upper(),
            birth_date=birth_date,
            status=Status.CREATED.value,
        )
        record_creation(proposal)
    return proposal, True

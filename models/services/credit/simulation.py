"""POST simulate: a Simulation row the actor computes, offers stored, previous ones superseded."""

from __future__ import annotations

from models.db.analysis import Offer
from models.db.compiled import Compiled, CompiledUpdate
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.db.simulations import Simulation
from models.domain.clock import now
from models.domain.errors import DomainError
from models.domain.lifecycles import AnalysisOutcome, SimulationStatus
from models.domain.loan.pricing import STANDARD_TERMS
from models.domain.loan.simulation import check_request, simulate_by_installments, simulate_by_loan_amount
from models.domain.statuses import PRE_CONTRACT_STATUSES
from models.services.credit.analysis import latest_analysis
from models.services.credit.analysis_runner import analysis_result
from models.services.credit.offers import store_offers
from models.services.credit.products import pricing
from models.services.credit.wire import plain
from models.services.partners.ownership import owned_proposal
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.proposal_status import wake_key
from models.services.platform.row_waits import await_row
from models.services.platform.unit_of_work import enqueue, notify, unit_of_work
from models.settings import PricingSettings

BY_INSTALLMENTS, BY_LOAN_AMOUNT = "BY_INSTALLMENTS", "BY_LOAN_AMOUNT"


def request_simulation(
    origin: str,
    proposal_id: str,
    *,
    installments: int | None,
    loan_amount,
    insured: bool,
    pricing_settings: PricingSettings,
) -> Simulation:
    """Check the state of the origin's proposal (409 otherwise) and enqueue the simulation actor.

    Offers can be simulated while they can be selected (offers exist, no contract yet) and the
    latest analysis approved them. Insured offers are simulated only when asked for and the partner
    has insurance on (read now, so a partner's change applies to the next request). Parameters
    outside the product's limits (``pricing_settings``) are refused first, before anything is stored.
    """
    check_request(installments, loan_amount, pricing(pricing_settings))
    proposal = owned_proposal(origin, proposal_id)
    insured = insured and Partner.get(Partner.code == origin).insurance_enabled
    analysis = latest_analysis(proposal.id)
    if proposal.status not in PRE_CONTRACT_STATUSES or analysis is None or analysis.outcome != AnalysisOutcome.APPROVED:
        raise DomainError(
            f"Simulation is not allowed in status {proposal.status}; it needs an approved analysis",
            error_code="INVALID_STATUS_FOR_SIMULATION",
            http_status=409,
            details={"currentStatus": proposal.status},
        )
    with unit_of_work():
        simulation = Simulation.create(
            proposal=proposal.id,
            mode=BY_INSTALLMENTS if installments is not None else BY_LOAN_AMOUNT,
            installments=installments,
            loan_amount=None if loan_amount is None else str(loan_amount),
            insured=insured,
        )
        enqueue(ActorName.RUN_SIMULATION, simulation.id)
    return simulation


def run(simulation_id: str, *, pricing_settings: PricingSettings) -> None:
    """Compute the offers of one simulation (idempotent: only a PENDING row is computed)."""
    simulation = Simulation.get_or_none(Simulation.id == simulation_id)
    if simulation is None or simulation.status != SimulationStatus.PENDING:
        return
    proposal = Proposal.get_by_id(simulation.proposal_id)
    partner = Partner.get(Partner.code == proposal.origin)
    analysis = latest_analysis(proposal.id)
    result = analysis_result(analysis, partner)
    terms = pricing(pricing_settings)
    try:
        if simulation.mode == BY_INSTALLMENTS:
            offers = simulate_by_installments(
                result,
                terms,
                simulation.installments,
                simulation.insured,
                proposal_id=proposal.id,
                now=proposal_now(proposal),
            )
        else:
            offers = simulate_by_loan_amount(
                result,
                terms,
                simulation.loan_amount,
                simulation.insured,
                proposal_id=proposal.id,
                now=proposal_now(proposal),
            )
    except DomainError as error:
        return _finish(
            simulation,
            SimulationStatus.FAILED,
            error={
                "http_status": error.http_status,
                "message": error.message,
                "error_code": error.error_code,
                "details": plain(error.details),
            },
        )
    with unit_of_work():
        if not _finish(simulation, SimulationStatus.DONE, offer_ids=[o["id"] for o in offers], in_unit=True):
            return
        # The selected offer stays valid until the customer pre-accepts another one.
        store_offers(proposal, offers, source="simulation", keep_id=proposal.selected_offer_id)


def _finish(simulation: Simulation, status: SimulationStatus, *, in_unit: bool = False, **fields) -> bool:
    def write() -> bool:
        updated = _FINISH.execute({"status": status, "finished_at": now(), **fields}, simulation.id)
        notify(wake_key(simulation.proposal_id))
        return updated == 1

    if in_unit:
        return write()
    with unit_of_work():
        return write()


# A failure writes its error, a success its offers: each end's UPDATE of a PENDING simulation,
# rendered once (models/db/compiled.py).
_FINISH = CompiledUpdate(
    Simulation,
    lambda simulation_id: (Simulation.id == simulation_id) & (Simulation.status == SimulationStatus.PENDING),
    str,
    shapes=(("status", "finished_at", "error"), ("status", "finished_at", "offer_ids")),
)


def simulation_offers(simulation: Simulation) -> list[Offer]:
    """The stored offers of a finished simulation, in priority order."""
    ids = simulation.offer_ids or []
    compiled = _OFFERS_WITH_IDS.get(len(ids))
    found = compiled.all(*ids) if compiled is not None else Offer.select().where(Offer.id.in_(ids))
    rows = {row.id: row for row in found}
    return [rows[i] for i in ids if i in rows]


# The SQL of an IN list changes with its length: one compiled read (models/db/compiled.py) per
# length a simulation gives (an offer per standard term at most); peewee renders any other (none).
_OFFERS_WITH_IDS: dict[int, Compiled[Offer]] = {
    count: Compiled(lambda *ids: Offer.select().where(Offer.id.in_(list(ids))), *[str] * count)
    for count in range(1, len(STANDARD_TERMS) + 1)
}


def await_simulation(simulation: Simulation, timeout: float) -> Simulation:
    """Hybrid wait: the simulation once the actor has finished it, or as it stands after ``timeout``."""
    return await_row(simulation, lambda row: row.status == SimulationStatus.PENDING, timeout)

"""POST /proposals/{id}/simulate: offers by term or by amount, computed by the simulation actor."""

from __future__ import annotations

from models import runtime
from models.domain.lifecycles import SimulationStatus
from models.services.credit.offers import current_offer
from models.services.credit.products import product_ref
from models.services.credit.simulation import BY_INSTALLMENTS, await_simulation, request_simulation, simulation_offers
from schemas.credit_analysis import SimulateRequest, SimulationResponse

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_BODY, PROPOSAL_NOT_FOUND, Blueprint
from ..errors import ApiError

blp = Blueprint("credit_simulation", __name__, description="Offer simulation")


@blp.route("/proposals/<proposal_id>/simulate", methods=["POST"], endpoint="simulate")
@blp.arguments(SimulateRequest)
@blp.response(200, SimulationResponse)
@blp.errors(
    {
        400: INVALID_BODY + "; INVALID_SIMULATION_PARAMETERS: outside the product's or the analysis' limits "
        "(details.field)",
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND,
        409: "INVALID_STATUS_FOR_SIMULATION",
        422: "INSUFFICIENT_MARGIN (details.availableMargin, details.minimumRequired)",
        503: "SIMULATION_TIMEOUT: the simulation is taking longer than expected; try again shortly",
    }
)
def simulate(body, proposal_id):
    """By ``installments`` the largest amount; by ``loan_amount`` the term options. Replaces earlier offers."""
    settings = runtime.current().settings
    requested = request_simulation(
        current_origin(),
        proposal_id,
        installments=body.get("installments"),
        loan_amount=body.get("loan_amount"),
        insured=bool(body["insured"]),
        pricing_settings=settings.credit.pricing,
    )
    simulation = await_simulation(requested, settings.credit.simulation_wait_seconds)
    if simulation.status == SimulationStatus.PENDING:
        raise ApiError(
            503, "The simulation is taking longer than expected; try again shortly", error_code="SIMULATION_TIMEOUT"
        )
    if simulation.status == SimulationStatus.FAILED:
        error = simulation.error
        raise ApiError(error["http_status"], error["message"], error_code=error["error_code"], details=error["details"])
    # Offers a simulation has just stored are never the proposal's selected one.
    offers = [current_offer(row, selected_offer_id=None) for row in simulation_offers(simulation)]
    product = product_ref(simulation.insured, products_settings=settings.products)
    mode_text = "term" if simulation.mode == BY_INSTALLMENTS else "amount"
    return {
        "simulation_mode": simulation.mode,
        "proposal_id": simulation.proposal_id,
        "product_id": product["id"],
        "product_name": product["name"],
        "total_offers": len(offers),
        "message": f"Simulation by {mode_text} returned {len(offers)} offer(s); earlier offers were replaced",
        "offers": offers,
    }

"""Simulation actor: offers by term or by amount for an approved proposal."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import SIMULATION, queue_name


@dramatiq.actor(
    actor_name=ActorName.RUN_SIMULATION.value,
    queue_name=queue_name(SIMULATION),
    max_retries=1,
    min_backoff=200,
    max_backoff=1000,
)
def run_simulation(simulation_id: str) -> None:
    """Compute one simulation (the route waits for it through the wake-ups)."""
    from models.services.credit.simulation import run

    run(simulation_id, pricing_settings=runtime.current().settings.credit.pricing)

"""Events of the e-signature provider (its callback, or the sandbox signing page) handed to the
signature-result actor through the outbox."""

from __future__ import annotations

from models.db.contracts import Contract
from models.domain.clock import isoformat_z
from models.domain.errors import NotFound
from models.services.money_path import tracking as money_path
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.unit_of_work import enqueue, unit_of_work


def queue_result(process_id: str, event: str, results: dict) -> None:
    """Hand an event of a known signing process to the signature-result actor (inside unit_of_work;
    NotFound, 404 ``PROCESS_NOT_FOUND``, for an unknown one); duplicates keep one message. The outbox
    row keeps the finished result: the money path's step record points at it, so a result whose
    message is lost is applied again by the re-drive sweep."""
    contract = Contract.get_or_none(Contract.unico_process_id == process_id)
    if contract is None:
        raise NotFound("Unknown signing process", error_code="PROCESS_NOT_FOUND")
    # When it reached us, on the proposal's clock: whether it came before the signature deadline
    # is judged by this instant, not by when the actor gets to apply it.
    queued = enqueue(
        ActorName.HANDLE_SIGNATURE_RESULT,
        process_id,
        event,
        results,
        received_at=isoformat_z(proposal_now(contract.proposal)),
        dedup_key=f"esign:{process_id}:{event}",
    )
    if queued is not None and event == money_path.SIGNATURE_FINISHED:
        money_path.track(contract.proposal, contract.id)


def accept_result(process_id: str, event: str, results: dict) -> None:
    """The provider's callback: queue the event (404 ``PROCESS_NOT_FOUND`` for an unknown signing
    process); a repeated event is deduplicated and the actor ignores late ones."""
    with unit_of_work():
        queue_result(process_id, event, results)

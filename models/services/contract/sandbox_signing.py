"""The sandbox e-signature provider's signing page: opening it starts the process, completing it
with chosen check results finishes it; each step notifies the service as the real provider would."""

from __future__ import annotations

from models.db.compiled import Compiled
from models.db.sandbox_providers import SandboxSigningProcess
from models.domain.clock import now
from models.domain.errors import DomainError, NotFound
from models.external.esignature.sandbox import PASSING_RESULTS
from models.services.contract.signature import FINISHED, RESULT_FIELDS, STARTED
from models.services.contract.signature_events import queue_result
from models.services.platform.unit_of_work import unit_of_work

CLOSED = ("COMPLETED", "CANCELED")


def _process(process_id: str) -> SandboxSigningProcess:
    process = SandboxSigningProcess.get_or_none(SandboxSigningProcess.process_id == process_id)
    if process is None:
        raise NotFound("Unknown signing process", error_code="PROCESS_NOT_FOUND")
    return process


# The page's two writes, rendered once (models/db/compiled.py).
_START: Compiled[SandboxSigningProcess] = Compiled(
    lambda process_id: SandboxSigningProcess.update(status="IN_PROGRESS").where(
        SandboxSigningProcess.process_id == process_id
    ),
    str,
)
_COMPLETE: Compiled[SandboxSigningProcess] = Compiled(
    lambda results, completed_at, process_id: SandboxSigningProcess.update(
        status="COMPLETED", results=results, completed_at=completed_at
    ).where(SandboxSigningProcess.process_id == process_id),
    SandboxSigningProcess.results,
    SandboxSigningProcess.completed_at,
    str,
)


def open_signing(process_id: str) -> SandboxSigningProcess:
    """The process behind the page; the first visit moves it to IN_PROGRESS and queues PROCESS_STARTED."""
    process = _process(process_id)
    with unit_of_work():
        if process.status == "PENDING":
            _START.execute(process_id)
            queue_result(process_id, STARTED, {})
    return process


def complete_signing(process_id: str, overrides: dict) -> tuple[SandboxSigningProcess, dict]:
    """Finish the process with every check passing except those ``overrides`` set, and queue
    PROCESS_FINISHED; returns the process and the results. 409 ``PROCESS_CLOSED`` once finished."""
    process = _process(process_id)
    if process.status in CLOSED:
        raise DomainError(f"Signing process is {process.status.lower()}", error_code="PROCESS_CLOSED", http_status=409)
    results = {name: str(overrides.get(name, PASSING_RESULTS[name])) for name in RESULT_FIELDS}
    with unit_of_work():
        _COMPLETE.execute(results, now(), process_id)
        queue_result(process_id, FINISHED, results)
    return process, results

"""Best-effort clean-up at the providers once a contract will never be paid.

After a cancel, an expiry, a failed signature or a fraud reproval the funding application is
cancelled and the signing process stopped. The proposal's status never waits for this: a failure
is recorded on the contract (``funding_cancel_error``) for the operations team.
"""

from __future__ import annotations

import logging

from models.db.contracts import Contract
from models.domain.clock import now
from models.domain.signature import SignatureStatus
from models.external.esignature import ESignature
from models.external.funding import Funding
from models.external.http_base import ExternalError

log = logging.getLogger(__name__)


def release(contract_id: str, *, esignature: ESignature, funding: Funding) -> None:
    """Cancel the funding application and the signing process of ``contract_id`` (idempotent)."""
    contract = Contract.get_or_none(Contract.id == contract_id)
    if contract is None:
        return
    if contract.unico_process_id and contract.signature_status != SignatureStatus.SIGNED:
        try:
            esignature.cancel_process(contract.unico_process_id)
        except ExternalError as error:
            log.warning("could not cancel signing process %s: %s", contract.unico_process_id, error)
    if not contract.funding_application_id or contract.funding_canceled_at is not None:
        return
    try:
        funding.cancel_application(contract.funding_application_id)
    except ExternalError as error:
        Contract.update(funding_cancel_error=str(error)[:500]).where(Contract.id == contract_id).execute()
        if error.retryable:
            raise  # the actor tries again later; the proposal's status is already final
        log.warning("funding application %s not cancelled: %s", contract.funding_application_id, error)
        return
    Contract.update(funding_canceled_at=now(), funding_cancel_error=None).where(Contract.id == contract_id).execute()

"""Sandbox e-signature provider: signing pages served by this service (http/routes/sandbox_signing).

Opening ``user_redirect_url`` (GET) marks the signature IN_PROGRESS; POSTing JSON to it completes
it: ``{}`` passes the four checks, ``process_result``, ``authentication_result``,
``liveness_result`` and ``trust_result`` override each one. The result then reaches the
signature-result actor through the outbox, like a provider callback would.
"""

from __future__ import annotations

import peewee

from models.db.database import db
from models.db.sandbox_providers import SandboxSigningProcess
from models.domain.clock import now
from models.external.esignature.port import ESignature, Signer, SigningProcess
from models.settings import current

PASSING_RESULTS = {
    "process_result": "PROCESS_RESULT_OK",
    "authentication_result": "AUTHENTICATION_RESULT_POSITIVE",
    "liveness_result": "LIVENESS_RESULT_LIVE",
    "trust_result": "TRUST_RESULT_NO",
}


def signing_url(process_id: str) -> str:
    return f"{current().public_base_url}/sandbox/esign/{process_id}"


class SandboxESignature(ESignature):
    def create_process(
        self, *, reference: str, signer: Signer, document: bytes, filename: str, redirect_url: str | None, expires_at
    ) -> SigningProcess:
        try:
            with db.atomic():
                row = SandboxSigningProcess.create(
                    reference=reference, signer_cpf=signer.cpf, signer_name=signer.name, redirect_url=redirect_url
                )
        except peewee.IntegrityError:  # same contract again (redelivery): same process
            row = SandboxSigningProcess.get(SandboxSigningProcess.reference == reference)
        return SigningProcess(row.process_id, signing_url(row.process_id))

    def cancel_process(self, process_id: str) -> None:
        (
            SandboxSigningProcess.update(status="CANCELED", completed_at=now())
            .where(
                SandboxSigningProcess.process_id == process_id,
                SandboxSigningProcess.status.in_(["PENDING", "IN_PROGRESS"]),
            )
            .execute()
        )

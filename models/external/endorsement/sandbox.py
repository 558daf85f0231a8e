"""Sandbox payroll endorsement: always registers; the id is derived from the contract id, so a
repeated call returns the same registration. (The maintenance window is a domain rule applied
before calling, see models/services/disbursement/post_signature.)"""

from __future__ import annotations

import uuid

from models.external.endorsement.port import Endorsement, EndorsementRequest


class SandboxEndorsement(Endorsement):
    def register(self, request: EndorsementRequest) -> str:
        return "END-" + uuid.uuid5(uuid.NAMESPACE_URL, f"endorsement:{request.contract_id}").hex[:16].upper()

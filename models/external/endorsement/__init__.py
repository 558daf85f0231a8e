"""Payroll-endorsement port; ``get_endorsement()`` picks sandbox or HTTP by ``external_mode``."""

from models.external.endorsement.port import Endorsement, EndorsementRequest
from models.settings import current

__all__ = ["Endorsement", "EndorsementRequest", "get_endorsement"]


def get_endorsement() -> Endorsement:
    settings = current()
    if settings.external_mode == "http":
        from models.external.endorsement.http_adapter import HttpEndorsement

        return HttpEndorsement(settings.endorsement.base_url, settings.endorsement.timeout_seconds)
    from models.external.endorsement.sandbox import SandboxEndorsement

    return SandboxEndorsement()

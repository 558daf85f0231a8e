"""E-signature port; ``get_esignature()`` picks sandbox or HTTP by ``external_mode``."""

from models.external.esignature.port import ESignature, Signer, SigningProcess
from models.settings import current

__all__ = ["ESignature", "Signer", "SigningProcess", "get_esignature"]


def get_esignature() -> ESignature:
    settings = current()
    if settings.external_mode == "http":
        from models.external.esignature.http_adapter import HttpESignature

        callback = f"{settings.public_base_url}/callbacks/esignature"
        return HttpESignature(settings.esignature.base_url, settings.esignature.timeout_seconds, callback)
    from models.external.esignature.sandbox import SandboxESignature

    return SandboxESignature()

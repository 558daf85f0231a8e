"""Funding-partner port; ``get_funding()`` picks sandbox or HTTP by ``external_mode``."""

from models.external.funding.port import Funding, FundingApplication, Payment
from models.settings import current

__all__ = ["Funding", "FundingApplication", "Payment", "get_funding"]


def get_funding() -> Funding:
    settings = current()
    if settings.external_mode == "http":
        from models.external.funding.http_adapter import HttpFunding

        return HttpFunding(settings.funding.base_url, settings.funding.timeout_seconds)
    from models.external.funding.sandbox import SandboxFunding

    return SandboxFunding()

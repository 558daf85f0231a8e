"""Fraud-analysis port; ``get_fraud()`` picks sandbox or HTTP by ``external_mode``."""

from models.external.fraud.port import FraudAnalysis, FraudCase
from models.settings import current

__all__ = ["FraudAnalysis", "FraudCase", "get_fraud"]


def get_fraud() -> FraudAnalysis:
    settings = current()
    if settings.external_mode == "http":
        from models.external.fraud.http_adapter import HttpFraudAnalysis

        return HttpFraudAnalysis(settings.fraud.base_url, settings.fraud.timeout_seconds)
    from models.external.fraud.sandbox import SandboxFraudAnalysis

    return SandboxFraudAnalysis()

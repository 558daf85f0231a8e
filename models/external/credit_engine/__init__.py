"""Credit engine: standard decision, insured offers are priced by the service from it."""

from __future__ import annotations

from models.external.credit_engine.port import CreditEngineError, CreditEnginePort, EngineDecision
from models.settings import current

__all__ = ["CreditEngineError", "CreditEnginePort", "EngineDecision", "get_credit_engine"]


def get_credit_engine() -> CreditEnginePort:
    """The adapter chosen by ``external_mode`` (sandbox or http)."""
    if current().external_mode == "http":
        from models.external.credit_engine.http_adapter import HttpCreditEngine
        from models.external.http_base import client_for

        return HttpCreditEngine(client_for(current().external.credit_engine, "credit_engine"))
    from models.external.credit_engine.sandbox import SandboxCreditEngine

    return SandboxCreditEngine()

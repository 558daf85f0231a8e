"""Credit engine: standard decision, insured offers are priced by the service from it (adapters
built by ports.py)."""

from __future__ import annotations

from models.external.credit_engine.port import CreditEngineError, CreditEnginePort, EngineDecision

__all__ = ["CreditEngineError", "CreditEnginePort", "EngineDecision"]

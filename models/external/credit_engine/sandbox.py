"""Deterministic credit engine driven by the sandbox CPFs."""

from __future__ import annotations

import time
from decimal import Decimal

from models.external import sandbox_cpfs as cpfs
from models.external.credit_engine.port import (
    INSUFFICIENT_SCORE,
    IRREGULAR_CPF,
    CreditEngineError,
    CreditEnginePort,
    EngineDecision,
)

POD_LIMIT_MAX = Decimal("50000.00")
PROMOTIONAL_POD_LIMIT_MAX = Decimal("60000.00")
PROMOTIONAL_RATE = Decimal("0.0179")


class SandboxCreditEngine(CreditEnginePort):
    """``slow_seconds``: how long the slow sandbox CPF's analysis takes (``credit.sandbox_slow_seconds``)."""

    def __init__(self, *, slow_seconds: float) -> None:
        self.slow_seconds = slow_seconds

    def evaluate(self, cpf: str, available_margin: Decimal, *, promotional: bool = False) -> EngineDecision:
        if cpf == cpfs.IRREGULAR_CPF:
            return EngineDecision(approved=False, rejection_reason=IRREGULAR_CPF)
        if cpf == cpfs.INSUFFICIENT_SCORE:
            return EngineDecision(approved=False, rejection_reason=INSUFFICIENT_SCORE, score=180)
        if cpf == cpfs.ENGINE_ERROR:
            raise CreditEngineError("credit engine error (sandbox)")
        if cpf == cpfs.SLOW_ANALYSIS:
            time.sleep(self.slow_seconds)
        return EngineDecision(
            approved=True,
            monthly_rate=PROMOTIONAL_RATE if promotional else None,
            max_installments=96,
            pod_limit_max=POD_LIMIT_MAX,
            promotional_pod_limit_max=PROMOTIONAL_POD_LIMIT_MAX,
            score=720,
        )

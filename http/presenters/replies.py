"""Small helpers shared by the credit-path routes."""
from __future__ import annotations

from flask import jsonify

from models.db.analysis import CreditAnalysis
from models.domain.lifecycles import AnalysisOutcome
from models.services.platform.wakeups import wakeups


def reply(body: dict | list, status: int):
    """A JSON response with ``status`` (the route's schema documents the body)."""
    response = jsonify(body)
    response.status_code = status
    return response


def wait_for_analysis(analysis_id: str, timeout: float) -> CreditAnalysis:
    """Hybrid wait: woken right after the actor commits; returns the analysis as it then stands."""
    def finished() -> bool:
        return CreditAnalysis.select(CreditAnalysis.outcome).where(
            CreditAnalysis.id == analysis_id).scalar() != AnalysisOutcome.IN_PROGRESS

    wakeups.wait_until(finished, timeout)
    return CreditAnalysis.get_by_id(analysis_id)

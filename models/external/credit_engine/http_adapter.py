"""Real credit engine over HTTP: POST /decisions {cpf, available_margin, promotional}."""

from __future__ import annotations

from decimal import Decimal

from models.external.credit_engine.port import CreditEngineError, CreditEnginePort, EngineDecision
from models.external.http_base import ExternalError, HttpClient


def _decimal(value) -> Decimal | None:
    return None if value is None else Decimal(str(value))


class HttpCreditEngine(CreditEnginePort):
    def __init__(self, client: HttpClient) -> None:
        self.client = client

    def evaluate(self, cpf: str, available_margin: Decimal, *, promotional: bool = False) -> EngineDecision:
        try:
            body = self.client.post(
                "/decisions", {"cpf": cpf, "available_margin": str(available_margin), "promotional": promotional}
            )
        except ExternalError as error:
            raise CreditEngineError(str(error)) from error
        try:
            return EngineDecision(
                approved=bool(body["approved"]),
                rejection_reason=body.get("rejection_reason"),
                monthly_rate=_decimal(body.get("monthly_rate")),
                max_installments=int(body.get("max_installments", 96)),
                pod_limit_max=_decimal(body.get("pod_limit_max")),
                promotional_pod_limit_max=_decimal(body.get("promotional_pod_limit_max")),
                score=body.get("score"),
            )
        except (KeyError, TypeError, ArithmeticError) as error:
            raise CreditEngineError(f"credit engine answered an unexpected body ({error})") from None

"""Audit-style reads of one proposal: the analysis data and the message timeline."""

from __future__ import annotations

from models.db.analysis import CreditAnalysis
from models.db.contact import MessageSend
from models.db.proposals import Consent
from models.services.partners.ownership import owned_proposal
from models.services.queries.detail import consent_view


def analysis_record(a: CreditAnalysis) -> dict:
    """One analysis with the approval snapshot, margin snapshot and raw engine result."""
    return {
        "id": a.id,
        "outcome": a.outcome,
        "kind": a.kind,
        "attempt": a.attempt,
        "mode": a.mode,
        "promotional": a.promotional,
        "available_margin": a.available_margin,
        "max_loan_amount": a.max_loan_amount,
        "max_installments": a.max_installments,
        "max_monthly_payment": a.max_monthly_payment,
        "min_monthly_payment": a.min_monthly_payment,
        "monthly_rate": a.monthly_rate,
        "pod_limit_max": a.pod_limit_max,
        "promotional_pod_limit_max": a.promotional_pod_limit_max,
        "rejection_reason": a.rejection_reason,
        "error_code": a.error_code,
        "retryable": a.retryable,
        "margin_snapshot": a.margin_snapshot,
        "engine_result": a.engine_result,
        "started_at": a.started_at,
        "finished_at": a.finished_at,
        "approved_at": a.approved_at,
    }


def analysis_data(origin: str, proposal_id: str) -> dict:
    """Every analysis of the origin's proposal (newest first) and every consent captured (newest first).

    A proposal never analysed answers 200 with empty lists: the data is simply not there yet.
    """
    p = owned_proposal(origin, proposal_id)
    analyses = p.analyses.order_by(CreditAnalysis.started_at.desc(), CreditAnalysis.attempt.desc())
    consents = p.consents.order_by(Consent.captured_at.desc(), Consent.id.desc())
    return {
        "proposal_id": p.id,
        "cpf": p.cpf,
        "analyses": [analysis_record(a) for a in analyses],
        "consents": [consent_view(c, with_text=True) for c in consents],
    }


def message_timeline(origin: str, proposal_id: str) -> dict:
    """Every SMS, messaging-app and email send of the origin's proposal, oldest first; the text (and
    so the token) is never served."""
    p = owned_proposal(origin, proposal_id)
    sends = p.messages.order_by(MessageSend.sent_at, MessageSend.id)
    items = [
        {
            "id": m.id,
            "channel": m.channel,
            "purpose": m.purpose,
            "recipient": m.recipient,
            "sent_at": m.sent_at,
            "delivery_status": m.delivery_status,
            "provider_message_id": m.provider_message_id,
            "error": m.error,
        }
        for m in sends
    ]
    return {"proposal_id": p.id, "total": len(items), "messages": items}

"""GET /proposals/{id}: everything the service knows about one proposal, in one document.

The spec leaves this shape open; it is the listing item plus: banking data (account and Pix key
masked), the latest consent (without its free text, which analysis-data carries), the latest
credit analysis outcome, the offers still selectable, the latest contract with its signature and
disbursement, and the status history in order.
"""
from __future__ import annotations

from models.db.analysis import CreditAnalysis, Offer
from models.db.contracts import Contract, Disbursement
from models.db.proposals import Consent, Proposal, StatusChange
from models.services.customer_queries import contract_view
from models.services.proposal_views import iso, mask_tail, masked_account, proposal_item, selected_offers_of


def banking_data(p: Proposal) -> dict | None:
    if p.pix_key:
        method = "PIX_KEY"
    elif p.use_pix_cpf:
        method = "PIX_CPF"
    elif p.bank_account:
        method = "ACCOUNT"
    else:
        return None
    return {"method": method, "bank_code": p.bank_code, "bank_branch": p.bank_branch,
            "bank_branch_digit": p.bank_branch_digit, "bank_account": masked_account(p),
            "account_type": p.account_type, "use_pix_cpf": bool(p.use_pix_cpf),
            "pix_key": mask_tail(p.pix_key), "pix_key_type": p.pix_key_type}


def consent_view(consent: Consent | None, *, with_text: bool = False) -> dict | None:
    if consent is None:
        return None
    view = {"ip": consent.ip, "geolocation": {"latitude": consent.latitude, "longitude": consent.longitude},
            "channel": consent.channel, "captured_at": iso(consent.captured_at)}
    if with_text:
        view["document_text"] = consent.document_text
    return view


def analysis_outcome(a: CreditAnalysis | None) -> dict | None:
    if a is None:
        return None
    return {"id": a.id, "outcome": a.outcome, "kind": a.kind, "attempt": a.attempt, "promotional": a.promotional,
            "available_margin": a.available_margin, "max_loan_amount": a.max_loan_amount,
            "max_installments": a.max_installments, "rejection_reason": a.rejection_reason,
            "error_code": a.error_code, "started_at": iso(a.started_at), "finished_at": iso(a.finished_at),
            "approved_at": iso(a.approved_at)}


def signature_view(c: Contract) -> dict | None:
    if not (c.signature_id or c.unico_process_id):
        return None
    return {"signature_id": c.signature_id, "unico_process_id": c.unico_process_id, "status": c.signature_status,
            "user_redirect_url": c.user_redirect_url, "expires_at": iso(c.signature_expires_at),
            "signed_at": iso(c.signed_at)}


def disbursement_view(d: Disbursement | None) -> dict | None:
    if d is None:
        return None
    return {"status": d.status, "amount": d.amount, "scheduled_for": d.scheduled_for.isoformat() if d.scheduled_for else None,
            "attempts": d.attempts, "paid_at": iso(d.paid_at)}


def proposal_detail(p: Proposal) -> dict:
    """The detail document of an already origin-checked proposal."""
    selected = selected_offers_of([p]).get(p.selected_offer_id)
    consent = p.consents.order_by(Consent.captured_at.desc(), Consent.id.desc()).first()
    analysis = p.analyses.order_by(CreditAnalysis.started_at.desc()).first()
    offers = p.offers.where(Offer.superseded_at.is_null()).order_by(Offer.created_at, Offer.kind)
    contract = p.contracts.order_by(Contract.created_at.desc()).first()
    disbursement = contract.disbursements.first() if contract else None
    history = p.status_changes.order_by(StatusChange.sequence)
    return {
        **proposal_item(p, selected),
        "product_id": p.product_id,
        "rejection_reason": p.rejection_reason,
        "banking_data": banking_data(p),
        "consent": consent_view(consent),
        "credit_analysis": analysis_outcome(analysis),
        "offers": [dict(o.payload or {}, id=o.id, kind=o.kind, source=o.source) for o in offers],
        "contract": contract_view(contract) if contract else None,
        "signature": signature_view(contract) if contract else None,
        "disbursement": disbursement_view(disbursement),
        "status_history": [{"sequence": c.sequence, "old_status": c.old_status, "new_status": c.new_status,
                            "trigger": c.trigger, "source": c.source, "changed_at": iso(c.changed_at)}
                           for c in history],
    }

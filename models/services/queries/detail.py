"""GET /proposals/{id}: everything the service knows about one proposal, in one document.

The spec leaves this shape open; it is the listing item plus: banking data (account and Pix key
masked), the latest consent (without its free text, which analysis-data carries), the latest
credit analysis outcome, the offers not replaced by newer ones (the spec's Offer object, built by
the same current offer as the analysis routes, so status and is_available are those of now), the
latest contract with its signature and disbursement, and the status history in order.
"""

from __future__ import annotations

from peewee import JOIN

from models.db.analysis import CreditAnalysis, Offer
from models.db.compiled import Compiled
from models.db.contracts import Contract, Disbursement
from models.db.proposals import Consent, Proposal, StatusChange
from models.services.credit.offers import current_offer
from models.services.partners.ownership import owned_proposal
from models.services.platform.proposal_clock import offset_of, proposal_now
from models.services.queries.customers import contract_view
from models.services.queries.views import mask_tail, masked_account, proposal_item


def banking_data(p: Proposal) -> dict | None:
    if p.pix_key:
        method = "PIX_KEY"
    elif p.use_pix_cpf:
        method = "PIX_CPF"
    elif p.bank_account:
        method = "ACCOUNT"
    else:
        return None
    return {
        "method": method,
        "bank_code": p.bank_code,
        "bank_branch": p.bank_branch,
        "bank_branch_digit": p.bank_branch_digit,
        "bank_account": masked_account(p),
        "account_type": p.account_type,
        "use_pix_cpf": bool(p.use_pix_cpf),
        "pix_key": mask_tail(p.pix_key),
        "pix_key_type": p.pix_key_type,
    }


def consent_view(consent: Consent | None, *, with_text: bool = False) -> dict | None:
    if consent is None:
        return None
    view = {
        "ip": consent.ip,
        "geolocation": {"latitude": consent.latitude, "longitude": consent.longitude},
        "channel": consent.channel,
        "captured_at": consent.captured_at,
    }
    if with_text:
        view["document_text"] = consent.document_text
    return view


def analysis_outcome(a: CreditAnalysis | None) -> dict | None:
    if a is None:
        return None
    return {
        "id": a.id,
        "outcome": a.outcome,
        "kind": a.kind,
        "attempt": a.attempt,
        "promotional": a.promotional,
        "available_margin": a.available_margin,
        "max_loan_amount": a.max_loan_amount,
        "max_installments": a.max_installments,
        "rejection_reason": a.rejection_reason,
        "error_code": a.error_code,
        "started_at": a.started_at,
        "finished_at": a.finished_at,
        "approved_at": a.approved_at,
    }


def signature_view(c: Contract) -> dict | None:
    if not (c.signature_id or c.unico_process_id):
        return None
    return {
        "signature_id": c.signature_id,
        "unico_process_id": c.unico_process_id,
        "status": c.signature_status,
        "user_redirect_url": c.user_redirect_url,
        "expires_at": c.signature_expires_at,
        "signed_at": c.signed_at,
    }


def disbursement_view(d: Disbursement | None) -> dict | None:
    if d is None:
        return None
    return {
        "status": d.status,
        "amount": d.amount,
        "scheduled_for": d.scheduled_for,
        "attempts": d.attempts,
        "paid_at": d.paid_at,
    }


# Only the columns the views read: fewer to compile (peewee's SQL building is most of this
# route's CPU) and to fetch; the consent's free text and the analysis inputs stay out.
DETAIL_COLUMNS = (
    Consent.id,
    Consent.ip,
    Consent.latitude,
    Consent.longitude,
    Consent.channel,
    Consent.captured_at,
    *(
        getattr(CreditAnalysis, name)
        for name in (
            "id",
            "outcome",
            "kind",
            "attempt",
            "promotional",
            "available_margin",
            "max_loan_amount",
            "max_installments",
            "rejection_reason",
            "error_code",
            "started_at",
            "finished_at",
            "approved_at",
        )
    ),
    *(
        getattr(Contract, name)
        for name in (
            "id",
            "proposal",
            "status",
            "issuer_application_id",
            "principal_amount",
            "total_amount",
            "installment_amount",
            "installments",
            "interest_rate",
            "disbursement_amount",
            "disbursement_date",
            "disbursement_paid_at",
            "first_due_date",
            "final_due_date",
            "issue_date",
            "created_at",
            "signature_id",
            "unico_process_id",
            "signature_status",
            "user_redirect_url",
            "signature_expires_at",
            "signed_at",
        )
    ),
    *(getattr(Disbursement, name) for name in ("id", "status", "amount", "scheduled_for", "attempts", "paid_at")),
)


def _latest_rows_query(proposal_id: str):
    """The proposal's latest consent, credit analysis and contract (with its disbursement) in one
    query: LEFT JOINs on the id each "latest" subquery picks (same orderings as the single reads)."""
    consent, analysis, contract = Consent.alias(), CreditAnalysis.alias(), Contract.alias()
    consent_id = (
        consent.select(consent.id)
        .where(consent.proposal == proposal_id)
        .order_by(consent.captured_at.desc(), consent.id.desc())
        .limit(1)
    )
    analysis_id = (
        analysis.select(analysis.id)
        .where(analysis.proposal == proposal_id)
        .order_by(analysis.started_at.desc())
        .limit(1)
    )
    contract_id = (
        contract.select(contract.id)
        .where(contract.proposal == proposal_id)
        .order_by(contract.created_at.desc())
        .limit(1)
    )
    return (
        Proposal.select(Proposal.id, *DETAIL_COLUMNS)
        .join_from(Proposal, Consent, JOIN.LEFT_OUTER, on=(Consent.id == consent_id), attr="latest_consent")
        .join_from(
            Proposal, CreditAnalysis, JOIN.LEFT_OUTER, on=(CreditAnalysis.id == analysis_id), attr="latest_analysis"
        )
        .join_from(Proposal, Contract, JOIN.LEFT_OUTER, on=(Contract.id == contract_id), attr="latest_contract")
        .join_from(
            Contract, Disbursement, JOIN.LEFT_OUTER, on=(Disbursement.contract == Contract.id), attr="only_disbursement"
        )
        .where(Proposal.id == proposal_id)
    )


# The detail is what partners poll: its three queries are rendered once (models/db/compiled.py).
_LATEST_ROWS: Compiled[Proposal] = Compiled(_latest_rows_query, str)
# The selectable offers and the selected one (normally among them); "" when none is selected (no
# offer has an empty id).
_OFFERS: Compiled[Offer] = Compiled(
    lambda proposal_id, selected_offer_id: (
        Offer.select()
        .where((Offer.proposal == proposal_id) & Offer.superseded_at.is_null() | (Offer.id == selected_offer_id))
        .order_by(Offer.created_at, Offer.kind)
    ),
    str,
    str,
)
_HISTORY: Compiled[StatusChange] = Compiled(
    lambda proposal_id: (
        StatusChange.select(
            StatusChange.sequence,
            StatusChange.old_status,
            StatusChange.new_status,
            StatusChange.trigger,
            StatusChange.source,
            StatusChange.changed_at,
        )
        .where(StatusChange.proposal == proposal_id)
        .order_by(StatusChange.sequence)
    ),
    str,
)


def _present(row):
    """A LEFT JOIN's model, or None when it matched nothing."""
    return row if row is not None and row.id is not None else None


def proposal_detail(origin: str, proposal_id: str) -> dict:
    """The detail document of the origin's proposal."""
    p = owned_proposal(origin, proposal_id)
    latest = _LATEST_ROWS.first(p.id)
    consent, analysis = _present(latest.latest_consent), _present(latest.latest_analysis)
    contract = _present(latest.latest_contract)
    disbursement = _present(contract.only_disbursement) if contract else None
    loaded = _OFFERS.all(p.id, p.selected_offer_id or "")
    selected = next((o for o in loaded if o.id == p.selected_offer_id), None)
    offers = [o for o in loaded if o.proposal_id == p.id and o.superseded_at is None]
    history = _HISTORY.all(p.id)
    at = proposal_now(p)
    detail = {
        **proposal_item(p, selected),
        "product_id": p.product_id,
        "rejection_reason": p.rejection_reason,
        "banking_data": banking_data(p),
        "consent": consent_view(consent),
        "credit_analysis": analysis_outcome(analysis),
        "offers": [current_offer(o, selected_offer_id=p.selected_offer_id, at=at) for o in offers],
        "contract": contract_view(contract) if contract else None,
        "signature": signature_view(contract) if contract else None,
        "disbursement": disbursement_view(disbursement),
        "status_history": [
            {
                "sequence": c.sequence,
                "old_status": c.old_status,
                "new_status": c.new_status,
                "trigger": c.trigger,
                "source": c.source,
                "changed_at": c.changed_at,
            }
            for c in history
        ],
    }
    if offset_of(p):  # only a proposal whose sandbox test clock was advanced shows its time
        detail["sandbox_clock"] = {"now": at, "offset_seconds": offset_of(p)}
    return detail

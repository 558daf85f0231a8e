"""Read models of a proposal: the spec's listing item and pieces shared with the detail view.

Views return plain dicts of data (Decimal amounts, datetimes, dates, the selected Offer row); the
response schemas (schemas/queries.py, schemas/fields.py) give them their wire format.

Masking decision: the disbursement account number and the Pix key are shown with only their last
four characters (``****5678``): the partner already holds the full values, and listings are a bulk
exposure path. Bank code, branch and account type stay readable for support conversations.
"""

from __future__ import annotations

from models.db.analysis import Offer
from models.db.proposals import Proposal
from models.domain.statuses import Status, status_detail


def mask_tail(value: str | None, visible: int = 4) -> str | None:
    """All but the last ``visible`` characters replaced by ``*`` (at least four stars)."""
    if not value:
        return value
    tail = value[-visible:] if len(value) > visible else value[-1:]
    return "*" * max(4, len(value) - len(tail)) + tail


def agency_of(proposal: Proposal) -> str | None:
    if not proposal.bank_branch:
        return None
    digit = proposal.bank_branch_digit
    return f"{proposal.bank_branch}-{digit}" if digit else proposal.bank_branch


def masked_account(proposal: Proposal) -> str | None:
    masked = mask_tail(proposal.bank_account)
    if masked and proposal.bank_account_digit:
        return f"{masked}-{proposal.bank_account_digit}"
    return masked


def detail_of(status: str) -> dict | None:
    """status_detail for a spec status; None for a value outside the enum (never expected)."""
    try:
        return status_detail(Status(status))
    except ValueError:
        return None


def selected_offers_of(proposals: list[Proposal]) -> dict[str, Offer]:
    """The selected offers of a page of proposals, loaded in one query (no N+1)."""
    ids = {p.selected_offer_id for p in proposals if p.selected_offer_id}
    if not ids:
        return {}
    return {offer.id: offer for offer in Offer.select().where(Offer.id.in_(list(ids)))}


def proposal_item(proposal: Proposal, selected: Offer | None) -> dict:
    """One ``data[]`` element of GET /proposals, field for field as the spec's Proposal table."""
    return {
        "id": proposal.id,
        "cpf": proposal.cpf,
        "full_name": proposal.full_name,
        "birth_date": proposal.birth_date,
        "email": proposal.email,
        "phone": proposal.phone,
        "status": proposal.status,
        "status_detail": detail_of(proposal.status),
        "bank_code": proposal.bank_code,
        "agency": agency_of(proposal),
        "account": masked_account(proposal),
        "account_type": proposal.account_type,
        "origin": proposal.origin,
        "user_redirect_url": proposal.user_redirect_url,
        "selected_offer": selected,
        "created_at": proposal.created_at,
        "updated_at": proposal.updated_at,
    }

"""What the credit-analysis routes read: the latest analysis, the hybrid wait, a finished result."""

from __future__ import annotations

from dataclasses import dataclass

from models.db.analysis import CreditAnalysis, Offer
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.domain.lifecycles import AnalysisOutcome
from models.services.credit.analysis import latest_analysis
from models.services.credit.offers import analysis_offers
from models.services.partners.ownership import owned_proposal
from models.services.platform.row_waits import await_row


def analysis_of(origin: str, proposal_id: str) -> CreditAnalysis | None:
    """The latest analysis of the origin's proposal; None before any was started."""
    return latest_analysis(owned_proposal(origin, proposal_id).id)


def await_analysis(analysis: CreditAnalysis, timeout: float) -> CreditAnalysis:
    """Hybrid wait: woken right after the actor commits (its outcome notifies the proposal's key);
    returns the analysis as it then stands."""
    return await_row(analysis, lambda row: row.outcome == AnalysisOutcome.IN_PROGRESS, timeout)


@dataclass(frozen=True)
class FinishedAnalysis:
    """A finished analysis as answered: the proposal read after it finished and, when approved, the
    offers it created and whether the partner sells the insured variant."""

    proposal: Proposal
    analysis: CreditAnalysis
    offer: Offer | None = None
    insured_offer: Offer | None = None
    insurance_enabled: bool = False


def finished_analysis(analysis: CreditAnalysis, partner: Partner) -> FinishedAnalysis:
    """Everything the result body of a finished (approved, rejected or failed) analysis shows.
    ``partner``: the proposal's origin as the request's bearer check read it (whether it sells the
    insured variant); read again only if it is another partner."""
    proposal = Proposal.get_by_id(analysis.proposal_id)
    if analysis.outcome != AnalysisOutcome.APPROVED:
        return FinishedAnalysis(proposal, analysis)
    offer, insured_offer = analysis_offers(analysis)
    if partner.code != proposal.origin:
        partner = Partner.get(Partner.code == proposal.origin)
    return FinishedAnalysis(proposal, analysis, offer, insured_offer, bool(partner.insurance_enabled))

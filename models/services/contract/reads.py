"""What the contract routes read: the origin's proposal with its latest contract, and the CCB file."""

from __future__ import annotations

from pathlib import Path

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.services.contract import pdf as contract_pdf
from models.services.contract.generation import latest_contract
from models.services.partners.ownership import owned_proposal
from models.settings import ContractSettings


def proposal_contract(origin: str, proposal_id: str) -> tuple[Proposal, Contract | None]:
    """The origin's proposal and its latest contract (None before any contract was started)."""
    proposal = owned_proposal(origin, proposal_id)
    return proposal, latest_contract(proposal.id)


def contract_document(origin: str, proposal_id: str, *, contract_settings: ContractSettings) -> tuple[Path, str] | None:
    """Path and contract id of the stored CCB PDF of the origin's proposal's latest contract; None
    when there is no contract or its document is not (or no longer) stored (under
    ``contract_settings.documents_dir``)."""
    _, contract = proposal_contract(origin, proposal_id)
    if contract is None or not contract.pdf_path:
        return None
    path = contract_pdf.path_of(contract.pdf_path, contract_settings=contract_settings)
    if not path.exists():
        return None
    return path, contract.id

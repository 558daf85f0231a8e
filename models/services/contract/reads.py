"""What the contract routes read: the origin's proposal with its latest contract, and the CCB file."""

from __future__ import annotations

from pathlib import Path

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.services.contract import signed_version
from models.services.contract.generation import latest_contract
from models.services.partners.ownership import owned_proposal
from models.settings import ContractSettings


def proposal_contract(origin: str, proposal_id: str) -> tuple[Proposal, Contract | None]:
    """The origin's proposal and its latest contract (None before any contract was started)."""
    proposal = owned_proposal(origin, proposal_id)
    return proposal, latest_contract(proposal.id)


def contract_document(
    origin: str, proposal_id: str, version: str | None = None, *, contract_settings: ContractSettings
) -> tuple[Path, str, str] | None:
    """Path, contract id and served version (``original`` or ``signed``) of the CCB PDF of the origin's
    proposal's latest contract: the signed version once signed unless ``version`` is ``original``;
    None when there is no contract or its document is not (or no longer) stored (under
    ``contract_settings.documents_dir``)."""
    _, contract = proposal_contract(origin, proposal_id)
    if contract is None:
        return None
    found = signed_version.stored_document(contract, version, contract_settings=contract_settings)
    if found is None:
        return None
    path, served = found
    return path, contract.id, served

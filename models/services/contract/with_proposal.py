"""A contract read together with its proposal: the actors' first read of the contract they act on."""

from __future__ import annotations

from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.proposals import Proposal


def contract_with_proposal(contract_id: str) -> Contract | None:
    """The contract, its ``proposal`` already loaded by the join (reading it runs no query), or None
    when there is no such contract. A read without lock: steps that decide re-read under theirs."""
    return _CONTRACT_AND_PROPOSAL.first(str(contract_id))


# One query instead of the contract's lookup and then its proposal's lazy load (a second query for
# the whole proposal); rendered once (models/db/compiled.py).
_CONTRACT_AND_PROPOSAL: Compiled[Contract] = Compiled(
    lambda contract_id: Contract.select(Contract, Proposal).join(Proposal).where(Contract.id == contract_id).limit(1),
    str,
)

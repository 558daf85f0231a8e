"""Sandbox collections: CPF 10000001171 is 45 days overdue once it has a DISBURSED contract."""

from __future__ import annotations

from models.db.proposals import Proposal
from models.external import sandbox_cpfs as cpfs
from models.external.collections.port import CollectionsPort


class SandboxCollections(CollectionsPort):
    def longest_overdue_days(self, cpf: str) -> int:
        if cpf != cpfs.DELINQUENT:
            return 0
        disbursed = Proposal.select().where(Proposal.cpf == cpf, Proposal.status == "DISBURSED").exists()
        return cpfs.DELINQUENT_OVERDUE_DAYS if disbursed else 0

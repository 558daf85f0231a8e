"""Collections system: overdue installments of a CPF."""

from __future__ import annotations

from models.external.collections.port import CollectionsPort, CollectionsUnavailable
from models.settings import current

__all__ = ["CollectionsPort", "CollectionsUnavailable", "get_collections", "longest_overdue_days"]


def get_collections() -> CollectionsPort:
    """The adapter chosen by ``external_mode`` (sandbox or http)."""
    if current().external_mode == "http":
        from models.external.collections.http_adapter import HttpCollections
        from models.external.http_base import client_for

        return HttpCollections(client_for(current().external.collections, "collections"))
    from models.external.collections.sandbox import SandboxCollections

    return SandboxCollections()


def longest_overdue_days(cpf: str) -> int:
    """The port function the start route uses for the DELINQUENT_CONTRACT rule."""
    return get_collections().longest_overdue_days(cpf)

"""Collections system: overdue installments of a CPF (adapters built by ports.py)."""

from __future__ import annotations

from models.external.collections.port import CollectionsPort, CollectionsUnavailable

__all__ = ["CollectionsPort", "CollectionsUnavailable"]

"""Collections port: how late the customer's worst overdue installment is (re-contracting rule)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class CollectionsUnavailable(Exception):
    """Overdue data could not be read; the start route answers 503 rather than guess."""


class CollectionsPort(ABC):
    @abstractmethod
    def longest_overdue_days(self, cpf: str) -> int:
        """Days overdue of the oldest unpaid installment of ``cpf`` (0 when none)."""

"""Instant-payment (Pix) directory: who owns a key, at which bank, and whether it can receive."""

from __future__ import annotations

import abc
from dataclasses import dataclass

FOUND = "FOUND"
NOT_FOUND = "NOT_FOUND"


@dataclass(frozen=True)
class PixKeyInfo:
    """The directory's answer for one key (``owner_document`` is a CPF for individuals)."""

    lookup: str  # FOUND | NOT_FOUND
    owner_document: str | None = None
    bank_code: str | None = None
    confirmed: bool = False  # key active and eligible to receive payments


class PixDirectory(abc.ABC):
    @abc.abstractmethod
    def lookup(self, key: str, key_type: str, *, requester_document: str) -> PixKeyInfo:
        """Look ``key`` up on behalf of ``requester_document`` (the proposal's CPF)."""

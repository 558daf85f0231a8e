"""E-signature provider: a signing process per contract, with identity, liveness and fraud checks."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Signer:
    cpf: str
    name: str
    email: str | None
    phone: str | None


@dataclass(frozen=True)
class SigningProcess:
    """``process_id`` is served as ``unico_process_id``; the customer signs at ``user_redirect_url``."""

    process_id: str
    user_redirect_url: str


class ESignature(abc.ABC):
    @abc.abstractmethod
    def create_process(
        self,
        *,
        reference: str,
        signer: Signer,
        document: bytes,
        filename: str,
        redirect_url: str | None,
        expires_at: datetime,
    ) -> SigningProcess:
        """Start (or return the already started) process for ``reference`` (our contract id)."""

    @abc.abstractmethod
    def cancel_process(self, process_id: str) -> None:
        """Stop a process that may no longer be signed (cancel, expiry)."""

"""Account ownership: does a bank account belong to a CPF? (The spec refuses third-party accounts.)

The service asks a yes/no question about one account and one CPF; it never learns who holds an
account that is not the customer's.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

CONFIRMED = "CONFIRMED"  # the account exists and the CPF is its holder
OTHER_HOLDER = "OTHER_HOLDER"  # the account exists and belongs to someone else
NOT_FOUND = "NOT_FOUND"  # no such account at that bank and branch


@dataclass(frozen=True)
class BankAccount:
    """A traditional account as the banking-data route normalised it."""

    bank_code: str
    branch: str
    branch_digit: str | None
    account: str
    account_digit: str
    account_type: str


class AccountOwnership(abc.ABC):
    @abc.abstractmethod
    def check(self, account: BankAccount, *, holder_document: str) -> str:
        """CONFIRMED, OTHER_HOLDER or NOT_FOUND for ``account`` and the CPF ``holder_document``;
        raises ExternalError when the service cannot answer (RetryableExternalError: try later)."""

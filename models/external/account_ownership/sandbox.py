"""Deterministic account-ownership service for sandbox and tests (README: sandbox banking data).

Every well-formed account belongs to the CPF asking, except these account numbers (any bank,
branch and digit): ``999999`` belongs to another holder, ``000000`` does not exist, and ``777777``
makes the service unavailable (a 503 to the caller).
"""

from __future__ import annotations

from models.external.account_ownership.port import CONFIRMED, NOT_FOUND, OTHER_HOLDER, AccountOwnership, BankAccount
from models.external.http_base import RetryableExternalError

ANOTHER_HOLDER_ACCOUNT = "999999"
MISSING_ACCOUNT = "000000"
UNAVAILABLE_ACCOUNT = "777777"


class SandboxAccountOwnership(AccountOwnership):
    def check(self, account: BankAccount, *, holder_document: str) -> str:
        if account.account == ANOTHER_HOLDER_ACCOUNT:
            return OTHER_HOLDER
        if account.account == MISSING_ACCOUNT:
            return NOT_FOUND
        if account.account == UNAVAILABLE_ACCOUNT:
            raise RetryableExternalError("account_ownership: sandbox unavailable account")
        return CONFIRMED

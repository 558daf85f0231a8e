"""Account ownership over HTTP: POST /accounts/ownership with the account and the CPF in the body
(never in the path or a query string, which are logged) -> {"result": CONFIRMED | OTHER_HOLDER |
NOT_FOUND}; a 404 is NOT_FOUND, any other answer an ExternalError."""

from __future__ import annotations

from models.external.account_ownership.port import CONFIRMED, NOT_FOUND, OTHER_HOLDER, AccountOwnership, BankAccount
from models.external.http_base import ExternalError, client_with_timeout

RESULTS = frozenset({CONFIRMED, OTHER_HOLDER, NOT_FOUND})


class HttpAccountOwnership(AccountOwnership):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = client_with_timeout(base_url, timeout, "account_ownership")

    def check(self, account: BankAccount, *, holder_document: str) -> str:
        body = {
            "bank_code": account.bank_code,
            "branch": account.branch,
            "branch_digit": account.branch_digit,
            "account": account.account,
            "account_digit": account.account_digit,
            "account_type": account.account_type,
            "holder_document": holder_document,
        }
        try:
            answer = self.client.post("/accounts/ownership", body)
        except ExternalError as error:
            if error.status_code == 404:
                return NOT_FOUND
            raise
        result = answer.get("result") if isinstance(answer, dict) else None
        if result not in RESULTS:
            raise ExternalError("account_ownership: unexpected answer", status_code=200)
        return result

"""Account-ownership port (adapters built by ports.py)."""

from models.external.account_ownership.port import (
    CONFIRMED,
    NOT_FOUND,
    OTHER_HOLDER,
    AccountOwnership,
    BankAccount,
)

__all__ = ["CONFIRMED", "NOT_FOUND", "OTHER_HOLDER", "AccountOwnership", "BankAccount"]

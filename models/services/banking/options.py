"""Rules of the banking-data body: which of the three options was used, and each option's fields.

Options (spec, POST banking-data): a traditional account, ``use_pix_cpf`` = true (the customer's
CPF as Pix key, no other field), or an explicit ``pix_key`` with its ``pix_key_type``. When a
``pix_key`` is sent the Pix flow takes priority: traditional fields in the same body are ignored.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from models.domain.cpf import cpf_valid
from models.domain.errors import ValidationFailed
from models.services.banking.banks import AUTHORISED_BANKS, normalise_code

TRADITIONAL_FIELDS = (
    "bank_code",
    "bank_branch",
    "bank_branch_digit",
    "bank_account",
    "bank_account_digit",
    "account_type",
)
REQUIRED_TRADITIONAL = ("bank_code", "bank_branch", "bank_account", "bank_account_digit", "account_type")
ACCOUNT_TYPES = {
    "checking": "checking",
    "checking_account": "checking",
    "savings": "savings",
    "savings_account": "savings",
    "payment": "payment",
}
KEY_TYPES = ("EVP", "EMAIL", "PHONE", "CPF")
# Matched whole (fullmatch): "$" would also accept a trailing newline, "\d" other Unicode digits.
_EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s]{2,}")
_PHONE = re.compile(r"\+[1-9][0-9]{10,14}")


@dataclass(frozen=True)
class Account:
    """A traditional account, normalised."""

    bank_code: str
    bank_branch: str
    bank_branch_digit: str | None
    bank_account: str
    bank_account_digit: str
    account_type: str


@dataclass(frozen=True)
class PixKey:
    """A Pix key to confirm in the directory; ``use_pix_cpf`` when it came from that flag."""

    key: str
    key_type: str
    use_pix_cpf: bool = False


def _fail(message: str, field: str | None, code: str, **details) -> ValidationFailed:
    return ValidationFailed(message, error_code=code, details={"field": field, **details} if field else details)


def _key_well_formed(key: str, key_type: str) -> bool:
    if key_type == "EVP":
        try:
            return str(uuid.UUID(key)) == key.lower()
        except ValueError:
            return False
    if key_type == "EMAIL":
        return bool(_EMAIL.fullmatch(key)) and len(key) <= 77
    if key_type == "PHONE":
        return bool(_PHONE.fullmatch(key))
    return cpf_valid(key)


def parse_pix_key(data: dict) -> PixKey:
    """The explicit-key option; 400 for a missing or unsupported type or a malformed key."""
    key, key_type = data.get("pix_key"), data.get("pix_key_type")
    if not key:
        raise _fail("pix_key is required when pix_key_type is given", "pix_key", "PIX_KEY_REQUIRED")
    if not key_type:
        raise _fail("pix_key_type is required when pix_key is given", "pix_key_type", "PIX_KEY_TYPE_REQUIRED")
    if key_type == "CNPJ":
        raise _fail(
            "CNPJ Pix keys are not supported; use a key of the customer's CPF",
            "pix_key_type",
            "PIX_KEY_TYPE_NOT_SUPPORTED",
        )
    if key_type not in KEY_TYPES:
        raise _fail(f"pix_key_type must be one of {', '.join(KEY_TYPES)}", "pix_key_type", "INVALID_PIX_KEY_TYPE")
    key = key.strip()
    if not _key_well_formed(key, key_type):
        raise _fail(f"pix_key is not a valid {key_type} key", "pix_key", "INVALID_PIX_KEY")
    return PixKey(key.lower() if key_type in ("EVP", "EMAIL") else key, key_type)


def parse_account(data: dict) -> Account:
    """The traditional option: every field but the branch digit required; authorised bank only."""
    for name in REQUIRED_TRADITIONAL:
        if not data.get(name):
            raise _fail(f"{name} is required for a bank account", name, "INVALID_BANKING_DATA")
    code = normalise_code(data["bank_code"])
    if code not in AUTHORISED_BANKS:
        raise _fail(
            f"Bank {code} is not allowed for disbursement; see GET /v1/banks",
            "bank_code",
            "BANK_NOT_ALLOWED",
            validCodes=sorted(AUTHORISED_BANKS),
        )
    return Account(
        code,
        data["bank_branch"],
        data.get("bank_branch_digit") or None,
        data["bank_account"],
        data["bank_account_digit"].upper(),
        ACCOUNT_TYPES[data["account_type"]],
    )


def parse_banking_data(data: dict, cpf: str) -> Account | PixKey:
    """Pick the option used in ``data`` (already type-checked by the schema) and validate it."""
    if data.get("pix_key") or data.get("pix_key_type"):
        if data.get("use_pix_cpf"):
            raise _fail("Send either use_pix_cpf or pix_key, not both", "use_pix_cpf", "INVALID_BANKING_DATA")
        return parse_pix_key(data)
    if data.get("use_pix_cpf"):
        extra = [name for name in TRADITIONAL_FIELDS if data.get(name)]
        if extra:
            raise _fail("use_pix_cpf = true takes no other field", extra[0], "INVALID_BANKING_DATA")
        return PixKey(cpf, "CPF", use_pix_cpf=True)
    return parse_account(data)

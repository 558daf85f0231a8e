"""Deterministic Pix directory for sandbox and tests (README: sandbox Pix keys).

* A CPF key is owned by that CPF: the proposal's own CPF is confirmed, any other is a mismatch.
* Any well-formed EVP, EMAIL or PHONE key is confirmed for the requester's CPF, except:
  ``mismatch@sandbox.test`` (belongs to another CPF), ``unconfirmed@sandbox.test`` (not
  confirmed), ``notfound@sandbox.test`` (not in the directory) and ``otherbank@sandbox.test``
  (held at bank 999, well formed but not on the authorised list).
* Keys are held at bank 001 otherwise.
"""

from __future__ import annotations

from models.external.pix_directory.port import FOUND, NOT_FOUND, PixDirectory, PixKeyInfo

SANDBOX_BANK = "001"
ANOTHER_CPF = "98765432100"


class SandboxPixDirectory(PixDirectory):
    def lookup(self, key: str, key_type: str, *, requester_document: str) -> PixKeyInfo:
        special = key.lower() if key_type == "EMAIL" else None
        if special == "notfound@sandbox.test":
            return PixKeyInfo(NOT_FOUND)
        if special == "mismatch@sandbox.test":
            return PixKeyInfo(FOUND, ANOTHER_CPF, SANDBOX_BANK, True)
        if special == "unconfirmed@sandbox.test":
            return PixKeyInfo(FOUND, requester_document, SANDBOX_BANK, False)
        if special == "otherbank@sandbox.test":
            return PixKeyInfo(FOUND, requester_document, "999", True)
        owner = key if key_type == "CPF" else requester_document
        return PixKeyInfo(FOUND, owner, SANDBOX_BANK, True)

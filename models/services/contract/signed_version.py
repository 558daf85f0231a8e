"""The signed version of the CCB and which stored version a request gets.

Decision: the signed version is produced once, when the signature result is applied (inside that
transaction, under the proposal's lock), and stored beside the unsigned original; both files are
then only read. Rendering on request would let a later change of the template's wording alter a
document the borrower already signed, and would print evidence read at request time instead of what
was recorded at signing. The evidence (provider, process id, the four validation results, signing
time, SHA-256 of the stored unsigned original) is recorded on the contract as it is printed.

The signed version reproduces the original's pages from the same stored terms and appends the
evidence page; the original file itself is kept unchanged and stays available.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

from models.db.contracts import Contract
from models.domain.clock import isoformat_z
from models.services.contract import pdf as contract_pdf
from models.services.contract.terms import TERMS_VERSION
from models.settings import ContractSettings, ESignatureSettings

log = logging.getLogger(__name__)
ORIGINAL = "original"
SIGNED = "signed"


def provider_name(esignature_settings: ESignatureSettings) -> str:
    """The e-signature provider as printed: ``esignature.provider_name``, else its address's host."""
    configured = esignature_settings.provider_name.strip()
    return configured or urlparse(esignature_settings.base_url).hostname or esignature_settings.base_url


def _original_sha256(contract: Contract, contract_settings: ContractSettings) -> str | None:
    if contract.original_sha256:
        return contract.original_sha256
    # Contracts stored before the hash was recorded: hash the stored file, the one the provider got.
    if contract.pdf_path:
        stored = contract_pdf.path_of(contract.pdf_path, contract_settings=contract_settings)
        if stored.exists():
            return contract_pdf.sha256(stored.read_bytes())
    return None


def evidence(
    contract: Contract,
    results: dict,
    signed_at: datetime,
    *,
    esignature_settings: ESignatureSettings,
    contract_settings: ContractSettings,
) -> dict:
    """What the evidence page prints, as recorded when the signature is applied."""
    return {
        "provider": provider_name(esignature_settings),
        "process_id": contract.unico_process_id,
        "results": dict(results),
        "signed_at": isoformat_z(signed_at),
        "original_sha256": _original_sha256(contract, contract_settings),
    }


def produce(contract: Contract, recorded: dict, *, contract_settings: ContractSettings) -> str | None:
    """Render and store the signed version; its relative path, or None for a contract whose terms
    predate this document (it keeps only its original).

    A storage failure does not hold the signature back (the outcome and its evidence are recorded
    in the same transaction regardless): the file is then written on the first request for it.
    """
    terms = contract.terms
    if not terms or terms.get("version") != TERMS_VERSION:
        return None
    document = contract_pdf.render(terms, recorded)
    try:
        return contract_pdf.store(
            document, contract.proposal_id, contract.id, signed=True, contract_settings=contract_settings
        )
    except OSError as error:
        log.error("signed CCB of contract %s not stored, it will be on first request: %s", contract.id, error)
        return None


def _late_signed_version(contract: Contract, contract_settings: ContractSettings) -> str | None:
    """The signed version of a signed contract whose file could not be stored at signing."""
    if contract.signature_evidence is None or contract.signed_pdf_path:
        return contract.signed_pdf_path
    relative = produce(contract, contract.signature_evidence, contract_settings=contract_settings)
    if relative:
        Contract.update(signed_pdf_path=relative).where(Contract.id == contract.id).execute()
    return relative


def stored_document(
    contract: Contract, version: str | None, *, contract_settings: ContractSettings
) -> tuple[Path, str] | None:
    """The file a request for ``version`` gets and which version it is: ``original`` asks for the
    unsigned original; no version gets the signed one once it exists, else the original. None
    when that file is not stored."""
    relative, served = contract.pdf_path, ORIGINAL
    signed = _late_signed_version(contract, contract_settings) if version != ORIGINAL else None
    if signed:
        relative, served = signed, SIGNED
    if not relative:
        return None
    path = contract_pdf.path_of(relative, contract_settings=contract_settings)
    return (path, served) if path.exists() else None

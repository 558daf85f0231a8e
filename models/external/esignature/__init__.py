"""E-signature port (adapters built by ports.py)."""

from models.external.esignature.port import ESignature, Signer, SigningProcess

__all__ = ["ESignature", "Signer", "SigningProcess"]

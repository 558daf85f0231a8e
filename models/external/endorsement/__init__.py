"""Payroll-endorsement port (adapters built by ports.py)."""

from models.external.endorsement.port import Endorsement, EndorsementRequest

__all__ = ["Endorsement", "EndorsementRequest"]

"""Funding-partner port (adapters built by ports.py)."""

from models.external.funding.port import Funding, FundingApplication, Payment

__all__ = ["Funding", "FundingApplication", "Payment"]

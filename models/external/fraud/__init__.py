"""Fraud-analysis port (adapters built by ports.py)."""

from models.external.fraud.port import FraudAnalysis, FraudCase

__all__ = ["FraudAnalysis", "FraudCase"]

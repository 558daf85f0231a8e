"""Storable JSON values: Decimals become JSON numbers (money already rounded to the cent)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any


def plain(value: Any) -> Any:
    """Recursively turn Decimals into numbers so a domain dict can be stored and served as JSON."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value

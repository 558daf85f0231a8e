"""JSON-ready values: Decimals become JSON numbers (money already rounded to the cent)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from models.domain.money import to_cents


def number(value: Decimal | None) -> float | None:
    """A Decimal as a JSON number (float keeps the cents; the domain rounded them already)."""
    return None if value is None else float(value)


def money_text(value: Decimal | None) -> str | None:
    """Money as decimal text with two places (fields the spec shows as strings)."""
    return None if value is None else str(to_cents(value))


def plain(value: Any) -> Any:
    """Recursively turn Decimals into numbers so a domain dict can be stored and served as JSON."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value

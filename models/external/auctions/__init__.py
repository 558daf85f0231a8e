"""Auction proposals from the payroll system: port, sandbox and HTTP adapter (built by ports.py)."""

from __future__ import annotations

from models.external.auctions.port import AuctionOffer, AuctionSource, AuctionSourceError

__all__ = ["AuctionOffer", "AuctionSource", "AuctionSourceError"]

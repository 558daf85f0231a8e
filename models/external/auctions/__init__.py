"""Auction proposals from the payroll system: port, sandbox and HTTP adapter."""

from __future__ import annotations

from models.external.auctions.port import AuctionOffer, AuctionSource, AuctionSourceError
from models.settings import current

__all__ = ["AuctionOffer", "AuctionSource", "AuctionSourceError", "get_auction_source"]

_sources: dict[str, AuctionSource] = {}


def get_auction_source() -> AuctionSource:
    """Sandbox (injected offers) or HTTP, by ``external_mode``."""
    mode = current().external_mode
    if mode not in _sources:
        if mode == "http":
            from models.external.auctions.http_adapter import HttpAuctionSource

            config = current().auctions
            _sources[mode] = HttpAuctionSource(config.base_url, timeout=config.timeout_seconds)
        else:
            from models.external.auctions.sandbox import SandboxAuctionSource

            _sources[mode] = SandboxAuctionSource()
    return _sources[mode]

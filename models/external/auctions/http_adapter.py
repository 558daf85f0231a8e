"""Payroll system auction feed over HTTP: ``GET {base_url}/auction-proposals`` -> JSON list."""

from __future__ import annotations

import logging

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from models.external.auctions.feed import read_feed
from models.external.auctions.port import AuctionOffer, AuctionSource, AuctionSourceError

log = logging.getLogger(__name__)


class HttpAuctionSource(AuctionSource):
    """Reads the feed with explicit timeouts; 5xx and connection errors are retried twice."""

    def __init__(self, base_url: str, *, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = requests.Session()
        retry = Retry(total=2, backoff_factor=0.5, status_forcelist=(500, 502, 503, 504), allowed_methods=("GET",))
        self.session.mount("http://", HTTPAdapter(max_retries=retry))
        self.session.mount("https://", HTTPAdapter(max_retries=retry))

    def fetch_new(self) -> list[AuctionOffer]:
        try:
            response = self.session.get(f"{self.base_url}/auction-proposals", timeout=(3.0, self.timeout))
        except requests.RequestException as error:
            raise AuctionSourceError(f"payroll system unreachable: {error}", retryable=True) from error
        if response.status_code >= 500:
            raise AuctionSourceError(f"payroll system answered {response.status_code}", retryable=True)
        if response.status_code != 200:
            raise AuctionSourceError(f"payroll system answered {response.status_code}", retryable=False)
        try:
            feed = read_feed(response.json())
        except ValueError as error:  # not JSON, or not a list
            raise AuctionSourceError(f"unreadable auction feed: {error}", retryable=False) from error
        for line in feed.left_out:
            log.warning("auction feed item left out: %s", line)
        return feed.offers

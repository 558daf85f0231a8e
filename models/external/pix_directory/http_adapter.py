"""Pix directory over HTTP: GET /keys/<key>?type=<type> -> {owner_document, bank_code, status}."""
from __future__ import annotations

from urllib.parse import quote

from models.external.jsonhttp import JsonHttpClient, ProviderError
from models.external.pix_directory.port import FOUND, NOT_FOUND, PixDirectory, PixKeyInfo


class HttpPixDirectory(PixDirectory):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = JsonHttpClient(base_url, timeout)

    def lookup(self, key: str, key_type: str, *, requester_document: str) -> PixKeyInfo:
        try:
            body = self.client.request("GET", f"/keys/{quote(key, safe='')}?type={key_type}",
                                       headers={"X-Requester-Document": requester_document})
        except ProviderError as error:
            if error.status == 404:
                return PixKeyInfo(NOT_FOUND)
            raise
        return PixKeyInfo(FOUND, body.get("owner_document"), body.get("bank_code"),
                          body.get("status") == "ACTIVE" and bool(body.get("can_receive", True)))

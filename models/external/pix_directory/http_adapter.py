"""Pix directory over HTTP: GET /keys/<key>?type=<type> -> {owner_document, bank_code, status}."""

from __future__ import annotations

from urllib.parse import quote

from models.external.http_base import ExternalError, client_with_timeout
from models.external.pix_directory.port import FOUND, NOT_FOUND, PixDirectory, PixKeyInfo


class HttpPixDirectory(PixDirectory):
    def __init__(self, base_url: str, timeout: float) -> None:
        self.client = client_with_timeout(base_url, timeout, "pix_directory")

    def lookup(self, key: str, key_type: str, *, requester_document: str) -> PixKeyInfo:
        try:
            # The key (often a CPF, phone or e-mail) is personal data: the log line shows a placeholder.
            body = self.client.request(
                "GET",
                f"/keys/{quote(key, safe='')}?type={key_type}",
                headers={"X-Requester-Document": requester_document},
                log_path="/keys/{key}",
            )
        except ExternalError as error:
            if error.status_code == 404:
                return PixKeyInfo(NOT_FOUND)
            raise
        return PixKeyInfo(
            FOUND,
            body.get("owner_document"),
            body.get("bank_code"),
            body.get("status") == "ACTIVE" and bool(body.get("can_receive", True)),
        )

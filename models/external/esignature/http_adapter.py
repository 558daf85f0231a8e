"""E-signature provider over HTTP (POST /processes, POST /processes/<id>/cancel)."""

from __future__ import annotations

import base64

from models.domain.clock import isoformat_z
from models.external.esignature.port import ESignature, Signer, SigningProcess
from models.external.http_base import client_with_timeout


class HttpESignature(ESignature):
    def __init__(self, base_url: str, timeout: float, callback_url: str) -> None:
        self.client = client_with_timeout(base_url, timeout, "esignature")
        self.callback_url = callback_url

    def create_process(
        self, *, reference: str, signer: Signer, document: bytes, filename: str, redirect_url: str | None, expires_at
    ) -> SigningProcess:
        body = {
            "reference": reference,
            "signer": {"cpf": signer.cpf, "name": signer.name, "email": signer.email, "phone": signer.phone},
            "document": {"filename": filename, "content_base64": base64.b64encode(document).decode()},
            "redirect_url": redirect_url,
            "expires_at": isoformat_z(expires_at),
            "callback_url": self.callback_url,
        }
        answer = self.client.request("POST", "/processes", json=body, headers={"Idempotency-Key": reference})
        return SigningProcess(answer["process_id"], answer["user_redirect_url"])

    def cancel_process(self, process_id: str) -> None:
        self.client.request("POST", f"/processes/{process_id}/cancel")

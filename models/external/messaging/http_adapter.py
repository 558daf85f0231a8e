"""Real SMS / messaging-app provider over HTTP: POST /messages {to, text, reference} -> {id}."""

from __future__ import annotations

from models.external.http_base import ExternalError, HttpClient
from models.external.messaging.port import MessagingError, MessagingPort


class HttpMessaging(MessagingPort):
    def __init__(self, client: HttpClient, channel: str) -> None:
        self.client = client
        self.channel = channel

    def send(self, phone: str, text: str, *, reference: str) -> str:
        try:
            body = self.client.post(
                "/messages", {"to": phone, "text": text, "reference": reference, "channel": self.channel}
            )
        except ExternalError as error:
            raise MessagingError(str(error), retryable=error.retryable) from error
        message_id = body.get("id")
        if not message_id:
            raise MessagingError("provider answered without a message id", retryable=False)
        return str(message_id)

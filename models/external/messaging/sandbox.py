"""Sandbox providers: nothing leaves the machine; the message lands in SandboxMessage, where the
owning partner reads it (GET /v1/sandbox/messages). The code is kept in clear only there."""

from __future__ import annotations

import re
import uuid

from models.db.sandbox import SandboxMessage
from models.external.messaging.port import MessagingPort

_CODE = re.compile(r"\b(\d{6})\b")


class SandboxMessaging(MessagingPort):
    def __init__(self, channel: str) -> None:
        self.channel = channel

    def send(self, phone: str, text: str, *, reference: str) -> str:
        match = _CODE.search(text)
        SandboxMessage.create(
            channel=self.channel, phone=phone, text=text, token=match.group(1) if match else None, reference=reference
        )
        return f"sandbox-{uuid.uuid4()}"

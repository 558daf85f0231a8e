"""SMS provider and messaging-app (WhatsApp) provider (adapters built by ports.py)."""

from __future__ import annotations

from models.external.messaging.port import SMS, WHATSAPP, MessagingError, MessagingPort

__all__ = ["SMS", "WHATSAPP", "MessagingError", "MessagingPort"]

"""SMS provider and messaging-app (WhatsApp) provider."""

from __future__ import annotations

from models.external.messaging.port import SMS, WHATSAPP, MessagingError, MessagingPort
from models.settings import current

__all__ = ["SMS", "WHATSAPP", "MessagingError", "MessagingPort", "get_messaging"]

_SETTINGS_KEY = {SMS: "sms", WHATSAPP: "messaging_app"}


def get_messaging(channel: str) -> MessagingPort:
    """The provider of ``channel`` ("sms" or "whatsapp") chosen by ``external_mode``."""
    if current().external_mode == "http":
        from models.external.http_base import client_for
        from models.external.messaging.http_adapter import HttpMessaging

        key = _SETTINGS_KEY[channel]
        return HttpMessaging(client_for(getattr(current().external, key), key), channel)
    from models.external.messaging.sandbox import SandboxMessaging

    return SandboxMessaging(channel)

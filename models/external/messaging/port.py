"""SMS and messaging-app providers: send a text to a phone, get the provider's message id."""

from __future__ import annotations

from abc import ABC, abstractmethod

SMS = "sms"
WHATSAPP = "whatsapp"


class MessagingError(Exception):
    """The provider did not accept the message."""

    def __init__(self, message: str, *, retryable: bool = True) -> None:
        super().__init__(message)
        self.retryable = retryable


class MessagingPort(ABC):
    channel: str

    @abstractmethod
    def send(self, phone: str, text: str, *, reference: str) -> str:
        """Send ``text`` to ``phone``; ``reference`` is our id for the send. Returns the provider id."""

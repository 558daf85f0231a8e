"""HMAC-SHA256 body signatures of provider callbacks (header ``X-Signature: sha256=<hex>``)."""

from __future__ import annotations

import hashlib
import hmac

from models.settings import current


def secret_for(provider: str) -> str:
    """The shared secret: ``[<provider>] callback_secret``, which env ``<PROVIDER>_CALLBACK_SECRET``
    overrides (models/settings.py)."""
    return str(getattr(current(), provider).callback_secret)


def sign(body: bytes, secret: str) -> str:
    """The header value a provider sends for ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(body: bytes, header: str | None, secret: str) -> bool:
    """Constant-time check; always False without a configured secret."""
    return bool(secret) and bool(header) and hmac.compare_digest(sign(body, secret), header.strip())

"""HMAC-SHA256 body signatures of provider callbacks (header ``X-Signature: sha256=<hex>``).

The shared secret of each provider is a setting (``esignature.callback_secret``,
``funding.callback_secret``; ``ESIGNATURE_CALLBACK_SECRET`` / ``FUNDING_CALLBACK_SECRET`` override
them), which the callback route passes in.
"""

from __future__ import annotations

import hashlib
import hmac


def sign(body: bytes, secret: str) -> str:
    """The header value a provider sends for ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(body: bytes, header: str | None, secret: str) -> bool:
    """Constant-time check; always False without a configured secret or with a header that is not
    ASCII (``compare_digest`` refuses to compare non-ASCII text: a TypeError, not an answer)."""
    if not secret or not header or not header.isascii():
        return False
    return hmac.compare_digest(sign(body, secret), header.strip())

"""Pix directory port; ``get_pix_directory()`` picks sandbox or HTTP by ``external_mode``."""

from models.external.pix_directory.port import FOUND, NOT_FOUND, PixDirectory, PixKeyInfo
from models.settings import current

__all__ = ["FOUND", "NOT_FOUND", "PixDirectory", "PixKeyInfo", "get_pix_directory"]


def get_pix_directory() -> PixDirectory:
    settings = current()
    if settings.external_mode == "http":
        from models.external.pix_directory.http_adapter import HttpPixDirectory

        return HttpPixDirectory(settings.pix_directory.base_url, settings.pix_directory.timeout_seconds)
    from models.external.pix_directory.sandbox import SandboxPixDirectory

    return SandboxPixDirectory()

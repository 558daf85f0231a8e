"""Pix directory port (adapters built by ports.py)."""

from models.external.pix_directory.port import FOUND, NOT_FOUND, PixDirectory, PixKeyInfo

__all__ = ["FOUND", "NOT_FOUND", "PixDirectory", "PixKeyInfo"]

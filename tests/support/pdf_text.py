"""Text of a PDF written by reportlab, page by page, without a PDF library: every ``(...) Tj``
string of each content stream (ASCII85 and/or Flate filters undone, escapes resolved), and the
document's metadata."""

from __future__ import annotations

import base64
import re
import zlib

_STREAM = re.compile(rb"<<([^>]*)>>\s*stream\r?\n(.*?)endstream", re.S)
_SHOWN = re.compile(rb"\(((?:\\.|[^\\)])*)\)\s*Tj", re.S)
_ESCAPE = re.compile(rb"\\([0-7]{3}|.)", re.S)


def _raw(value: bytes) -> bytes:
    return _ESCAPE.sub(lambda m: bytes([int(m.group(1), 8)]) if len(m.group(1)) == 3 else m.group(1), value)


def _unescape(value: bytes) -> str:
    return _raw(value).decode("cp1252", errors="replace")


def page_strings(pdf: bytes) -> list[list[str]]:
    """The strings shown on each page that shows any, in drawing order (WinAnsi decoded)."""
    pages = []
    for header, raw in _STREAM.findall(pdf):
        data = raw
        if b"ASCII85Decode" in header:
            data = base64.a85decode(data.strip().removesuffix(b"~>"))
        if b"FlateDecode" in header:
            data = zlib.decompress(data)
        strings = [_unescape(s) for s in _SHOWN.findall(data)]
        if strings:
            pages.append(strings)
    return pages


_INFO = re.compile(rb"/(Title|Author|Subject|Creator) \(((?:\\.|[^\\)])*)\)")


def metadata(pdf: bytes) -> dict[str, str]:
    """Title, Author, Subject and Creator of the document information dictionary (literal strings,
    as reportlab writes them: PDFDocEncoding, which matches Latin-1 for accented letters)."""
    return {key.decode(): _raw(value).decode("latin-1") for key, value in _INFO.findall(pdf)}

"""A person's name as the service keeps it, whoever sends it: a partner at the HTTP edge
(schemas/edge.py) or the payroll system's auction feed (models/external/auctions)."""

from __future__ import annotations

import re
import unicodedata

NAME_MAX_LENGTH = 200

# A person's name, as the document states it (JSON Schema and Python read it alike). Letters: the
# Latin blocks (Basic Latin, Latin-1, Extended-A and -B, Extended Additional) without the letters
# whose upper case is longer (U+00DF, U+0149, U+01F0, U+1E96-U+1E9A); an ASCII letter may carry
# combining accents (U+0300-U+036F without U+0340-U+0345, deprecated or Greek marks that NFC or
# upper-casing replace), as a decomposed accented letter arrives. Between two letters: nothing, a
# run of whitespace, or one apostrophe, dot or hyphen, typographic forms included. So normalising,
# then upper-casing, never makes a name longer than it was sent (tests/unit/schemas/test_edge.py):
# the 200 characters sent fit the column.
_ACCENTED_LETTER = (
    r"\u00c0-\u00d6\u00d8-\u00de\u00e0-\u00f6\u00f8-\u0148\u014a-\u01ef\u01f1-\u024f"
    r"\u1e00-\u1e95\u1e9b-\u1eff"
)
_NAME_ACCENT = r"\u0300-\u033f\u0346-\u036f"
_NAME_SPACE = r"\t\n\r \u00a0\u2000-\u200a\u202f\u205f\u3000"
_APOSTROPHE_FORMS = "\u2019\u2018\u02bc\u00b4\u0060\u2032"  # as HR systems and phone keyboards send them
_HYPHEN_FORMS = "\u2010\u2011"
_NAME_JOINER = r"'.\-\u2019\u2018\u02bc\u00b4\u0060\u2032\u2010\u2011"
_LETTER = rf"(?:[A-Za-z][{_NAME_ACCENT}]*|[{_ACCENTED_LETTER}])"
NAME_PATTERN = rf"^[{_NAME_SPACE}]*{_LETTER}(?:(?:[{_NAME_SPACE}]+|[{_NAME_JOINER}])?{_LETTER})+\.?[{_NAME_SPACE}]*$"
NAME_ERROR = "must contain letters, spaces, apostrophes, dots or hyphens only"
_APOSTROPHES = dict.fromkeys(map(ord, _APOSTROPHE_FORMS), "'")
_HYPHENS = dict.fromkeys(map(ord, _HYPHEN_FORMS), "-")
_NAME = re.compile(NAME_PATTERN)


def normalise_spaces(value: str) -> str:
    """Trimmed, every run of whitespace (non-breaking spaces, tabs included) one plain space."""
    return " ".join(value.split())


def normalise_name(value: str) -> str:
    """A person's name as stored before upper-casing: NFC, ``'`` for typographic apostrophes, ``-``
    for typographic hyphens, single spaces, trimmed."""
    value = unicodedata.normalize("NFC", value).translate(_APOSTROPHES).translate(_HYPHENS)
    return normalise_spaces(value)


def person_name(value: object) -> str | None:
    """``value`` normalised when it is a name by :data:`NAME_PATTERN` of at most
    :data:`NAME_MAX_LENGTH` characters as sent; None otherwise."""
    if not isinstance(value, str) or len(value) > NAME_MAX_LENGTH or not _NAME.match(value):
        return None
    return normalise_name(value)

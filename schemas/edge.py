"""The edge's normalisation and validation of request values: one rule per kind of value, used by
every request schema (README, "What the edge accepts").

- **Digits** are ASCII ``0-9`` only: ``\\d``, ``int()``, ``strptime`` and ``uuid.UUID`` also accept
  other Unicode digits (a fullwidth zero), which no CPF, phone, bank account or date contains and no
  downstream system expects.
- **Patterns** must match the whole value: ``re.match`` with ``$`` also accepts a trailing newline.
- **Names** are NFC-normalised (decomposed accents composed), typographic apostrophes become ``'``,
  runs of whitespace become one space, and the length is checked on the upper-cased form (the one
  stored).
- **Numbers** are finite and bounded; a boolean is not a number; a query integer is plain ASCII
  digits (``int()`` would also take ``"1_000"`` and ``" 7 "``).
- **Strings** are bounded by the column that stores them.

Every bound is a marshmallow ``Length``, ``Range``, ``Regexp`` or ``OneOf``, so the OpenAPI
document states it (``maxLength``, ``maximum``, ``pattern``, ``enum``). The request guard
(``http/guards.py``) refuses control characters and over-nested JSON before any schema runs;
``json_problem`` below is its rule.
"""

from __future__ import annotations

import math
import re
import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any

from marshmallow import ValidationError, fields, validate

# JSON nested deeper than this is refused (400) before a schema sees it; request bodies nest 2 levels.
MAX_JSON_DEPTH = 32
# Control characters refused in every JSON string (tab, line feed and carriage return stay: free text
# such as the consent document has lines) and, with those three, in the path and query string.
JSON_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# Typographic apostrophes and hyphens as HR systems and phone keyboards send them.
_APOSTROPHES = dict.fromkeys(map(ord, "\u2019\u2018\u02bc\u00b4\u0060\u2032"), "'")
_HYPHENS = dict.fromkeys(map(ord, "\u2010\u2011"), "-")
_NAME = re.compile(r"[^\W\d_]+(?:[ '.-][^\W\d_]+)*\.?")

PHONE_PATTERN = r"^\+55[1-9][0-9]9[0-9]{8}$"  # +55, area code, 9-digit mobile
PHONE_ERROR = "must be +55, a 2-digit area code and a 9-digit mobile number"
UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_QUERY_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


class Pattern(validate.Regexp):
    """``Regexp`` over the whole value (``fullmatch``): ``^[0-9]{6}$`` refuses ``"123456\\n"``.

    Write the pattern with ``^`` and ``$`` so the OpenAPI document shows the same rule."""

    def __call__(self, value):
        if not isinstance(value, str) or self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def digits(minimum: int, maximum: int, error: str = "must contain ASCII digits only") -> Pattern:
    """``minimum`` to ``maximum`` ASCII digits, nothing else."""
    return Pattern(rf"^[0-9]{{{minimum},{maximum}}}$", error=error)


def normalise_spaces(value: str) -> str:
    """Trimmed, every run of whitespace (non-breaking spaces, tabs included) one plain space."""
    return " ".join(value.split())


def normalise_name(value: str) -> str:
    """A person's name as stored before upper-casing: NFC, ``'`` for typographic apostrophes, ``-``
    for typographic hyphens, single spaces, trimmed."""
    value = unicodedata.normalize("NFC", value).translate(_APOSTROPHES).translate(_HYPHENS)
    return normalise_spaces(value)


def name_valid(value: str) -> bool:
    """Letters (any script), single spaces, apostrophes, dots and hyphens between them; an optional
    final dot (an abbreviated surname)."""
    return _NAME.fullmatch(value) is not None


class Text(fields.String):
    """A string bounded by its column: ``Text(max_length=16)``; ``strip`` trims it first."""

    def __init__(self, *, max_length: int, min_length: int = 0, strip: bool = False, **kwargs: Any) -> None:
        self.strip = strip
        validators = [validate.Length(min=min_length or None, max=max_length)]
        super().__init__(validate=validators + list(kwargs.pop("validate", [])), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        return text.strip() if self.strip and text is not None else text


class PersonName(fields.String):
    """A person's full name: normalised (``normalise_name``), letters and separators only, at most
    ``max_length`` characters once upper-cased (the stored form; ``ß`` becomes ``SS``)."""

    def __init__(self, *, max_length: int = 200, min_length: int = 2, **kwargs: Any) -> None:
        self.max_length = max_length
        super().__init__(validate=validate.Length(min=min_length, max=max_length), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        name = normalise_name(super()._deserialize(value, attr, data, **kwargs))
        if not name_valid(name):
            raise ValidationError("must contain letters, spaces, apostrophes, dots or hyphens only")
        if len(name.upper()) > self.max_length:
            raise ValidationError(f"Longer than maximum length {self.max_length}.")
        return name


class NameFilter(fields.String):
    """A partial name to search for, normalised like ``PersonName`` (no character rule: a fragment)."""

    def __init__(self, *, max_length: int = 200, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(max=max_length), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return normalise_name(super()._deserialize(value, attr, data, **kwargs))


class EmailAddress(fields.Email):
    """An e-mail address, trimmed and lower-cased (the stored form), at most ``max_length`` then."""

    def __init__(self, *, max_length: int = 254, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(max=max_length), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = value.strip().lower()
        return super()._deserialize(value, attr, data, **kwargs)


class Integer(fields.Integer):
    """An integer from ``minimum`` to ``maximum``; never a boolean, a float or, in a body, a string.
    In a query string (``strict=False``) only plain ASCII digits are read."""

    def __init__(self, *, minimum: int, maximum: int, strict: bool = True, **kwargs: Any) -> None:
        super().__init__(strict=strict, validate=validate.Range(min=minimum, max=maximum), **kwargs)

    def _validated(self, value):
        if isinstance(value, bool):
            raise self.make_error("invalid")
        if isinstance(value, str) and not _QUERY_INTEGER.fullmatch(value):
            raise self.make_error("invalid")
        return super()._validated(value)


class Amount(fields.Decimal):
    """A finite decimal from ``minimum`` (exclusive) to ``maximum``; never a boolean."""

    def __init__(self, *, minimum: float, maximum: float, **kwargs: Any) -> None:
        super().__init__(
            allow_nan=False,
            validate=validate.Range(min=minimum, max=maximum, min_inclusive=False),
            **kwargs,
        )

    def _validated(self, value):
        if isinstance(value, bool) or (isinstance(value, str) and not value.isascii()):
            raise self.make_error("invalid")
        return super()._validated(value)


class Number(fields.Float):
    """A finite number from ``minimum`` to ``maximum`` (a coordinate); never a boolean, and a numeric
    string only in ASCII (``float()`` also reads fullwidth digits)."""

    def __init__(self, *, minimum: float, maximum: float, **kwargs: Any) -> None:
        super().__init__(allow_nan=False, validate=validate.Range(min=minimum, max=maximum), **kwargs)

    def _validated(self, value):
        if isinstance(value, bool) or (isinstance(value, str) and not value.isascii()):
            raise self.make_error("invalid")
        return super()._validated(value)


class Day(fields.Date):
    """A calendar day written ``YYYY-MM-DD`` in ASCII digits."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Uuid(fields.UUID):
    """A UUID written in ASCII hex with hyphens (``uuid.UUID`` also reads fullwidth digits); the
    canonical lower-case string."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=Pattern(UUID_PATTERN, error="must be a UUID"), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not re.fullmatch(UUID_PATTERN[1:-1], value):
            raise self.make_error("invalid_uuid")
        return str(uuid.UUID(value))


class IpAddress(fields.IP):
    """An IPv4 or IPv6 address as text, at most 45 characters (the column), no zone id."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > 45 or "%" in value:
            raise self.make_error("invalid_ip")
        return super()._deserialize(value, attr, data, **kwargs)


@dataclass(frozen=True)
class JsonProblem:
    """Why a JSON body is refused: the error code, the field path and the message."""

    error_code: str
    field: str
    message: str


def json_problem(document: Any) -> JsonProblem | None:
    """The first reason a parsed JSON body is refused, or None.

    Refused: nesting deeper than MAX_JSON_DEPTH (``INVALID_JSON``); a number that is not finite
    (``1e999`` parses as infinity); control characters other than tab, line feed and carriage return
    in any key or string (``VALIDATION_ERROR``): no column stores them, and PostgreSQL refuses NUL.
    Walked without recursion, so a hostile document cannot exhaust the stack.
    """
    stack: list[tuple[Any, str, int]] = [(document, "", 1)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, dict | list) and depth > MAX_JSON_DEPTH:
            return JsonProblem("INVALID_JSON", path or "body", f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(node, str):
            if JSON_CONTROL.search(node):
                return JsonProblem("VALIDATION_ERROR", path or "body", "must not contain control characters")
        elif isinstance(node, float):
            if not math.isfinite(node):
                return JsonProblem("VALIDATION_ERROR", path or "body", "must be a finite number")
        elif isinstance(node, dict):
            if any(JSON_CONTROL.search(key) for key in node):
                return JsonProblem("VALIDATION_ERROR", path or "body", "keys must not contain control characters")
            # Pushed in reverse, so the first field in the document is the one reported.
            stack.extend((node[key], f"{path}.{key}" if path else key, depth + 1) for key in reversed(node))
        elif isinstance(node, list):
            children = [
                (value, f"{path}[{index}]" if path else f"[{index}]", depth + 1) for index, value in enumerate(node)
            ]
            stack.extend(reversed(children))
    return None

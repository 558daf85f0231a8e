"""How the edge reads request values: one field type or validator per kind of value, used by every
request schema (README, "What the edge accepts"). The other half, how the service writes values,
is ``schemas/fields.py``; the wire formats both halves share (day, UUID) are defined there.

- **The document is the rule.** Every bound is a marshmallow ``Length``, ``Range``, ``Regexp`` or a
  documented pattern, so the OpenAPI document states it (``maxLength``, ``maximum``, ``pattern``,
  ``format``) and a value valid by the document is never refused for its shape. Rules apply to the
  value as sent; normalisation (names, e-mails) then gives the form kept, never a different verdict.
- **JSON types are taken as declared.** A numeric string is not a number, ``1`` or ``"yes"`` is not
  ``true``, a boolean is not a number, a day is exactly ``YYYY-MM-DD``, a UUID is the canonical
  8-4-4-4-12 text.
- **Digits** are ASCII ``0-9`` only: ``\\d``, ``int()``, ``strptime`` and ``uuid.UUID`` also accept
  other Unicode digits (a fullwidth zero), which no CPF, phone, bank account or date contains and no
  downstream system expects. Patterns match the whole value (Python's ``$`` also accepts a trailing
  newline) with ASCII classes, as JSON Schema reads them.
- **Names** are Latin-script letters (accents as precomposed letters or combining marks) in words
  joined by whitespace, an apostrophe, a dot or a hyphen, typographic apostrophes and hyphens
  included; the kept form is NFC with ``'`` and ``-`` and single spaces. Letters whose upper case is
  longer (``ß`` becomes ``SS``) are not among them, so the stored upper-case form is never longer
  than the name sent.
- **Numbers** are finite and bounded; a query integer is plain ASCII digits (``int()`` would also
  take ``"1_000"`` and ``" 7 "``).
- **Strings** are bounded by the column that stores them and hold no control character (free text
  keeps its tab and line breaks): no column stores them, and PostgreSQL refuses NUL. Fields a
  schema does not declare are dropped unread, whatever they hold.

The request guard (``http/guards.py``) refuses, on every route before any schema runs, control
characters in the path and query string, and JSON that is not interoperable (over-nested, numbers
that are not finite); ``json_problem`` below is its JSON rule.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from marshmallow import ValidationError, fields, validate

from models.domain.person_name import NAME_ERROR, NAME_PATTERN, normalise_name
from schemas.fields import DAY_PATTERN, UUID_EXAMPLE, UUID_PATTERN, documented

# JSON nested deeper than this is refused (400) before a schema sees it; request bodies nest 2 levels.
MAX_JSON_DEPTH = 32
# Control characters, refused in the path and query string (the guard) and in every string field:
# a single-line value has none; free text (the consent document) keeps tab, line feed and return.
URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
SINGLE_LINE_PATTERN = r"^[^\x00-\x1f\x7f]*$"
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
CONTROL_ERROR = "must not contain control characters"

PHONE_PATTERN = r"^\+55[1-9][0-9]9[0-9]{8}$"  # +55, area code, 9-digit mobile
PHONE_ERROR = "must be +55, a 2-digit area code and a 9-digit mobile number"
CPF_PATTERN = r"^[0-9]{11}$"
CPF_ERROR = "must be 11 digits with valid check digits"
_QUERY_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


class Pattern(validate.Regexp):
    """A ``Regexp`` read as JSON Schema reads the documented ``pattern``: over the whole value
    (``fullmatch``: ``^[0-9]{6}$`` refuses ``"123456\\n"``) with ASCII ``\\d``/``\\w``/``\\s``.

    Write the pattern with ``^`` and ``$`` so the document shows the same rule."""

    def __init__(self, regex: str, *, error: str | None = None) -> None:
        super().__init__(regex, flags=re.ASCII, error=error)

    def __call__(self, value):
        if not isinstance(value, str) or self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def digits(minimum: int, maximum: int, error: str = "must contain ASCII digits only") -> Pattern:
    """``minimum`` to ``maximum`` ASCII digits, nothing else."""
    count = f"{minimum}" if minimum == maximum else f"{minimum},{maximum}"
    return Pattern(rf"^[0-9]{{{count}}}$", error=error)


class Text(fields.String):
    """A string checked as sent, then kept in its ``normalise``-d form.

    ``Text(max_length=16)`` is bounded by its column and holds no control character (``lines=True``:
    tab, line feed and carriage return allowed) unless a ``Pattern`` of its own says what it holds.
    The validators (documented) apply to the value as sent, so the document's verdict and the
    service's are the same; subclasses normalise after."""

    def __init__(self, *, max_length: int, min_length: int = 0, lines: bool = False, **kwargs: Any) -> None:
        validators = [validate.Length(min=min_length or None, max=max_length), *kwargs.pop("validate", [])]
        if not any(isinstance(validator, validate.Regexp) for validator in validators):
            validators.append(Pattern(TEXT_PATTERN if lines else SINGLE_LINE_PATTERN, error=CONTROL_ERROR))
        super().__init__(validate=validators, **kwargs)

    def normalise(self, value: str) -> str:
        """The form kept (the value as sent here)."""
        return value

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        super()._validate(text)
        return self.normalise(text)

    def _validate(self, value) -> None:
        """Already checked as sent, in ``_deserialize``: the normalised form is not checked again."""


class PersonName(Text):
    """A person's full name (``NAME_PATTERN``), 2 to ``max_length`` characters as sent; kept
    normalised (``normalise_name``). The stored upper-case form is never longer than the name sent."""

    def __init__(self, *, max_length: int = 200, min_length: int = 2, **kwargs: Any) -> None:
        metadata = documented(
            kwargs.pop("metadata", None),
            {
                "description": "Latin letters, accented ones precomposed or with combining accents, in words "
                "joined by whitespace or one apostrophe, dot or hyphen (typographic forms too); stored "
                "normalised (NFC, ' and -, single spaces, trimmed) and upper-cased"
            },
        )
        super().__init__(
            max_length=max_length,
            min_length=min_length,
            validate=[Pattern(NAME_PATTERN, error=NAME_ERROR)],
            metadata=metadata,
            **kwargs,
        )

    def normalise(self, value: str) -> str:
        return normalise_name(value)


class NameFilter(Text):
    """A partial name to search for, normalised like ``PersonName`` (a fragment: no letter rule, only
    no control character)."""

    def __init__(self, *, max_length: int = 200, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)

    def normalise(self, value: str) -> str:
        return normalise_name(value)


class EmailAddress(fields.Email):
    """An e-mail address of at most ``max_length`` characters as sent; trimmed and lower-cased (the
    stored form) before its syntax is checked."""

    def __init__(self, *, max_length: int = 254, **kwargs: Any) -> None:
        self.length = validate.Length(max=max_length)
        super().__init__(validate=self.length, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            self.length(value)
            value = value.strip().lower()
        return super()._deserialize(value, attr, data, **kwargs)

    def _validate(self, value) -> None:
        """The syntax, on the stored form (the length was checked as sent)."""
        validate.And(*(validator for validator in self.validators if validator is not self.length))(value)


class Integer(fields.Integer):
    """An integer from ``minimum`` to ``maximum``: in a body a JSON integer (never a boolean, a float
    or a string); in a query string (``query=True``) plain ASCII digits."""

    def __init__(self, *, minimum: int, maximum: int, query: bool = False, **kwargs: Any) -> None:
        self.query = query
        super().__init__(strict=not query, validate=validate.Range(min=minimum, max=maximum), **kwargs)

    def _validated(self, value):
        if self.query and not (isinstance(value, str) and _QUERY_INTEGER.fullmatch(value)):
            raise self.make_error("invalid")
        return super()._validated(value)


def _json_number(field: fields.Field, value: Any) -> None:
    """A JSON number: not a numeric string, not a boolean."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise field.make_error("invalid")


class Number(fields.Float):
    """A finite JSON number from ``minimum`` to ``maximum`` (a coordinate), read as a float."""

    def __init__(self, *, minimum: float, maximum: float, **kwargs: Any) -> None:
        super().__init__(allow_nan=False, validate=validate.Range(min=minimum, max=maximum), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        _json_number(self, value)
        return super()._deserialize(value, attr, data, **kwargs)


class Amount(fields.Decimal):
    """A finite JSON number above ``minimum`` (exclusive) up to ``maximum``, read as the exact
    Decimal it is written as (``5000.1`` is ``Decimal("5000.1")``, not the float's binary value).

    The bounds are written into the document as numbers (apispec writes a range through the field,
    and a Decimal would become the string ``"0"``)."""

    def __init__(self, *, minimum: int, maximum: int, **kwargs: Any) -> None:
        metadata = documented(kwargs.pop("metadata", None), {"exclusiveMinimum": True})
        super().__init__(
            allow_nan=False,
            validate=validate.Range(min=minimum, max=maximum, min_inclusive=False),
            metadata=metadata,
            **kwargs,
        )

    def _deserialize(self, value, attr, data, **kwargs):
        _json_number(self, value)
        # A float's repr is the shortest decimal that reads back as it: the number as written.
        return super()._deserialize(repr(value) if isinstance(value, float) else value, attr, data, **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        number = Decimal(value)
        return int(number) if number == number.to_integral_value() else float(number)


class Boolean(fields.Boolean):
    """A JSON ``true`` or ``false`` (not ``"yes"``, ``1`` or ``"true"``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Day(fields.Date):
    """A calendar day written exactly ``YYYY-MM-DD`` in ASCII digits (not the other forms ISO 8601
    allows), read as a date."""

    def __init__(self, *, metadata: dict | None = None, **kwargs: Any) -> None:
        defaults = {"pattern": DAY_PATTERN, "example": "2026-05-11"}
        super().__init__(format="%Y-%m-%d", metadata=documented(metadata, defaults), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not re.fullmatch(DAY_PATTERN, value):
            raise self.make_error("invalid", input=value, obj_type=self.OBJ_TYPE)
        return super()._deserialize(value, attr, data, **kwargs)


class Uuid(fields.String):
    """A UUID in its canonical 8-4-4-4-12 form in ASCII hex (``uuid.UUID`` also reads braces, URNs
    and fullwidth digits), read as lower-case text."""

    def __init__(self, *, metadata: dict | None = None, **kwargs: Any) -> None:
        defaults = {"format": "uuid", "pattern": UUID_PATTERN, "example": UUID_EXAMPLE}
        super().__init__(metadata=documented(metadata, defaults), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not re.fullmatch(UUID_PATTERN, text):
            raise ValidationError("Not a valid UUID.")
        return text.lower()


class IpAddress(fields.IP):
    """An IPv4 or IPv6 address as text, at most 45 characters (the column), no zone id."""

    def __init__(self, *, metadata: dict | None = None, **kwargs: Any) -> None:
        defaults = {"format": "ip", "maxLength": 45, "description": "an IPv4 or IPv6 address"}
        super().__init__(metadata=documented(metadata, defaults), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > 45 or "%" in value or not value.isascii():
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

    Refused: nesting deeper than MAX_JSON_DEPTH (``INVALID_JSON``) and a number that is not finite
    (``VALIDATION_ERROR``: ``1e999`` parses as infinity, which RFC 8259 leaves to no interoperable
    reader). Walked without recursion, so a hostile document cannot exhaust the stack. Strings are
    the fields' business (control characters), and fields no schema declares are dropped unread.
    """
    stack: list[tuple[Any, str, int]] = [(document, "", 1)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, dict | list) and depth > MAX_JSON_DEPTH:
            return JsonProblem("INVALID_JSON", path or "body", f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(node, float):
            if not math.isfinite(node):
                return JsonProblem("VALIDATION_ERROR", path or "body", "must be a finite number")
        elif isinstance(node, dict):
            # Pushed in reverse, so the first field in the document is the one reported.
            stack.extend((node[key], f"{path}.{key}" if path else key, depth + 1) for key in reversed(node))
        elif isinstance(node, list):
            children = [
                (value, f"{path}[{index}]" if path else f"[{index}]", depth + 1) for index, value in enumerate(node)
            ]
            stack.extend(reversed(children))
    return None

"""What the fuzzer learns from the document's own words, and the one check stricter than its own.

Formats: the document names three formats JSON Schema has no generator for; each is defined in the
document (``info.description`` and the field) and generated here exactly as defined:
* ``cpf``: 11 digits with valid check digits (not all equal);
* ``ip``: an IPv4 or IPv6 address;
* ``date``: schemathesis' default draws any day from year 1 to 9999; request days here are past
  days from 1900 on (a birth date must be, and a filter day may be any day), so they are drawn there.

Check ``positive_data_is_never_a_validation_error``: the built-in positive_data_acceptance check
accepts 400 for valid-by-document data (the spec answers 400 for business refusals such as a wrong
SMS code or a bank outside the authorised list, see schemathesis.toml). This check closes the gap it
leaves: a request the document calls valid must never be refused for its shape, i.e. with
VALIDATION_ERROR, INVALID_JSON or INVALID_CONTENT_TYPE; such a refusal means the document misses a
constraint the service enforces. The one exception is a rule of time (``TIME_RULES``).
"""

from __future__ import annotations

from datetime import date, timedelta

import schemathesis
from hypothesis import strategies as st

from models.domain.cpf import with_check_digits

SHAPE_ERRORS = frozenset({"VALIDATION_ERROR", "INVALID_JSON", "INVALID_CONTENT_TYPE"})
# Rules of time a JSON Schema cannot state; the document states them in the field's description.
# A day after yesterday reaches the fuzzer in its own ways (boundary values, values it learns from
# answers), so a refusal for this rule alone is the documented answer, not a missing constraint.
TIME_RULES = {"birth_date": "must be a past date"}


def _cpfs() -> st.SearchStrategy[str]:
    bases = st.text(alphabet="0123456789", min_size=9, max_size=9).filter(lambda base: len(set(base)) > 1)
    return bases.map(with_check_digits).filter(lambda cpf: len(set(cpf)) > 1)


def _ips() -> st.SearchStrategy[str]:
    return st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6)).map(str)


def _days() -> st.SearchStrategy[str]:
    yesterday = date.today() - timedelta(days=1)
    return st.dates(min_value=date(1900, 1, 1), max_value=yesterday).map(date.isoformat)


def install() -> None:
    """Register the formats and the check (once per process: schemathesis keeps them globally)."""
    schemathesis.openapi.format("cpf", _cpfs())
    schemathesis.openapi.format("ip", _ips())
    schemathesis.openapi.format("date", _days())

    @schemathesis.check
    def positive_data_is_never_a_validation_error(ctx, response, case):
        meta = case.meta
        if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
            return None
        try:
            code = (response.json() or {}).get("errorCode")
        except ValueError:
            return None
        body = response.json() or {}
        field = (body.get("details") or {}).get("field")
        if field in TIME_RULES and TIME_RULES[field] in str(body.get("message")):
            return None
        if code in SHAPE_ERRORS:
            raise AssertionError(
                f"{case.operation.label}: a request valid by the document was refused as {code}: "
                f"{response.json().get('message')}"
            )
        return None


def start_journeys_at_start() -> None:
    """Let the stateful phase begin a journey at POST /proposals/start.

    Schemathesis starts link chains at operations it guesses can succeed with random data; its
    name heuristics read the request's ``full_name`` as a reference to a "Full" resource nothing
    produces, so it never picks the one operation that creates a proposal, and the journey the
    document's links declare (start, contact, SMS code, analysis, offers, banking data, contract)
    would never run. This marks that operation as an entry point; nothing else changes.
    """
    from schemathesis.specs.openapi import stateful

    guess = stateful.is_likely_root_transition
    if getattr(guess, "journey_entry", False):
        return

    def is_likely_root_transition(operation, node, produced_anywhere):
        if operation.method == "post" and operation.path.endswith("/proposals/start"):
            return True
        return guess(operation, node, produced_anywhere)

    is_likely_root_transition.journey_entry = True  # type: ignore[attr-defined]
    stateful.is_likely_root_transition = is_likely_root_transition

"""Validation of the read-side query parameters (listing, statistics, customer routes).

Decision on date filters: ``created_from`` / ``created_to`` / ``updated_from`` / ``updated_to`` are
calendar days in America/Sao_Paulo (the business's clock: "today" for a partner in Brazil), and
both ends are inclusive. ``created_to=2026-05-10`` therefore covers up to 2026-05-10 23:59:59.999
local time, i.e. 2026-05-11T02:59:59.999Z. The bounds are turned into UTC instants here, so the
database compares plain indexed timestamps.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from models.domain.clock import SAO_PAULO, to_utc
from models.domain.cpf import cpf_valid
from models.domain.errors import ValidationFailed
from models.domain.statuses import Status

SORTS = ("created_at:asc", "created_at:desc", "updated_at:asc", "updated_at:desc", "full_name:asc", "full_name:desc")
DEFAULT_SORT = "created_at:desc"
STATUS_CODES = [status.value for status in Status]


def parse_statuses(raw: str | None) -> list[str]:
    """Split a comma list of statuses; every value must be a spec status (400 with validCodes)."""
    if raw is None or not raw.strip():
        return []
    values = [part.strip().upper() for part in raw.split(",") if part.strip()]
    unknown = [value for value in values if value not in STATUS_CODES]
    if unknown:
        raise ValidationFailed(
            f"Invalid status filter: {', '.join(unknown)}",
            error_code="INVALID_STATUS_FILTER",
            details={"field": "status", "invalidValues": unknown, "validCodes": STATUS_CODES},
        )
    return list(dict.fromkeys(values))  # de-duplicated, order kept for the echo


def parse_sort(raw: str | None) -> tuple[str, str]:
    """``field:direction`` among the six documented values (400 with validCodes otherwise)."""
    value = (raw or DEFAULT_SORT).strip()
    if value not in SORTS:
        raise ValidationFailed(
            f"Invalid sort '{value}'", error_code="INVALID_SORT", details={"field": "sort", "validCodes": list(SORTS)}
        )
    field, direction = value.split(":")
    return field, direction


def local_day_start(day: date) -> datetime:
    """The UTC instant at which ``day`` begins in Sao Paulo."""
    return to_utc(datetime.combine(day, time.min, tzinfo=SAO_PAULO))


def day_range(first: date | None, last: date | None, *, field: str) -> tuple[datetime | None, datetime | None]:
    """Inclusive local days -> half-open UTC range [start, end); 400 when ``first`` is after ``last``."""
    if first and last and first > last:
        raise ValidationFailed(
            f"{field}_from must not be after {field}_to",
            error_code="INVALID_DATE_RANGE",
            details={"field": f"{field}_from"},
        )
    start = local_day_start(first) if first else None
    end = local_day_start(last + timedelta(days=1)) if last else None
    return start, end


def valid_cpf(cpf: str) -> str:
    """The customer routes take a valid CPF: 11 digits, no mask, right check digits (400 otherwise)."""
    if not cpf_valid(cpf):
        raise ValidationFailed(
            "Invalid CPF: it must be 11 digits with valid check digits",
            error_code="INVALID_CPF",
            details={"field": "cpf"},
        )
    return cpf


def clean_text(value: str | None) -> str | None:
    """Blank filters count as absent, surrounding spaces are ignored."""
    if value is None:
        return None
    value = value.strip()
    return value or None

"""The database half of the readiness probe (GET /health/ready)."""

from __future__ import annotations

from models.db.database import db


def database_ok() -> tuple[bool, str | None]:
    """(True, None) when the database answers ``SELECT 1``; else (False, why). Never raises: the
    probe answers either way. Opens and closes its own connection (the probe path connects to
    nothing beforehand, so it still answers while the database is down)."""
    try:
        db.execute_sql("SELECT 1")
        return True, None
    except Exception as error:  # reported, not raised: readiness answers either way
        return False, f"unreachable ({error.__class__.__name__})"
    finally:
        if not db.is_closed():
            db.close()

"""The SQL statements this process sends through the service's database, for tests that count
round trips."""

from __future__ import annotations

from models.db.database import db


class SentStatements:
    """From construction on (``monkeypatch`` undoes it), ``sql`` lists the statements sent, without
    what preparing one costs the first time (its savepoint and PREPARE: models/db/prepared.py)."""

    def __init__(self, monkeypatch) -> None:
        self.sql: list[str] = []
        original = db.obj.execute_sql

        def counting(sql, params=None, *args, **kwargs):
            if not sql.startswith(("SAVEPOINT", "RELEASE", "PREPARE")):
                self.sql.append(sql)
            return original(sql, params, *args, **kwargs)

        monkeypatch.setattr(db.obj, "execute_sql", counting)

"""The SQL statements this process sends through the service's database, for tests that count
round trips."""

from __future__ import annotations

from models.db.database import db
from models.db.prepared import prepared


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

    @property
    def texts(self) -> list[str]:
        """``sql`` with each ``EXECUTE compiled_<n>(...)`` of a prepared statement (PostgreSQL) as the
        SQL it runs, so a test can tell which table a statement reads on either backend."""
        names = {statement.name: statement.sql for statement in prepared._statements.values() if statement}
        return [names.get(sql.partition("(")[0].removeprefix("EXECUTE "), sql) for sql in self.sql]

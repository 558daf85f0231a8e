"""SQL rendered once per process, planned once per PostgreSQL connection.

psycopg2 sends every statement as text: PostgreSQL parses and plans it again on each execution.
For the statements whose SQL is fixed (``compiled.py``, the lookups and INSERTs of
``simple_statements.py``) that is most of the database's work on the hot path: on a table with
the proposal's ten indexes, the status UPDATE costs 185 us as text and 97 us prepared, the locking
read 333 us and 267 us (BENCHMARKS.md). ``execute(sql, params)`` therefore runs such a statement
on PostgreSQL as ``EXECUTE name(...)``, after a ``PREPARE name AS ...`` the first time the
connection meets it; SQLite (whose driver keeps its own statement cache) runs it as it is.

Why it is safe:
- A prepared statement belongs to its server session and survives COMMIT and ROLLBACK. Which
  names a connection holds is remembered per connection object; a new connection (the pool's, or
  after a restart) starts with none.
- The first time this process prepares a statement it does so inside a savepoint: a statement
  PostgreSQL refuses to prepare (SQLSTATE class 42: a parameter whose type it cannot infer) is run
  as text from then on, and the transaction around it goes on; any other failure (a lost
  connection) raises as the statement itself would have.
- A connection whose prepared statement stopped working (it no longer exists, or a table's shape
  changed under its plan) runs text from then on; the failing statement raises as any other
  database error, and its transaction's retry runs as text.
- Behind a pooler that shares server sessions between clients in transaction mode (PgBouncer's
  ``pool_mode = transaction``) prepared statements are not safe: set ``prepared_statements =
  false`` under ``[database]`` there.
"""

from __future__ import annotations

import itertools
import logging
import threading
import weakref
from typing import Any

import peewee

from models.db.database import db

log = logging.getLogger(__name__)

# SQLSTATEs after which a connection's prepared statements are no longer trusted: the statement
# does not exist (invalid_sql_statement_name) or its plan's result shape changed
# (feature_not_supported: "cached plan must not change result type").
_BROKEN_STATEMENT_CODES = ("26000", "0A000")


class _Statement:
    __slots__ = ("checked", "execute_sql", "name", "prepare_sql", "sql")

    def __init__(self, name: str, sql: str, count: int) -> None:
        self.name, self.sql = name, sql
        first, *rest = sql.split("%s")  # psycopg2's placeholders become $1, $2, ... in PREPARE
        self.prepare_sql = f"PREPARE {name} AS {first}" + "".join(f"${n}{part}" for n, part in enumerate(rest, 1))
        self.execute_sql = f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"
        self.checked = False  # prepared once by this process (inside a savepoint)


class PreparedStatements:
    """The process's statements by SQL text and, per connection, which of them it has prepared."""

    def __init__(self) -> None:
        self.enabled = True
        self._statements: dict[str, _Statement | None] = {}  # None: run as text
        self._names = itertools.count(1)
        self._held: weakref.WeakKeyDictionary[Any, set[str] | None] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def execute(self, sql: str, params: list) -> Any:
        """Run ``sql`` with ``params`` (the database's own placeholders); the cursor."""
        database = db.obj
        if not self.enabled or not isinstance(database, peewee.PostgresqlDatabase):
            return db.execute_sql(sql, params)
        statement = self._statement(sql, len(params))
        if statement is None:
            return db.execute_sql(sql, params)
        connection = database.connection()
        held = self._held_by(connection)
        if held is None:
            return db.execute_sql(sql, params)
        if statement.name not in held and not self._prepare(statement, held):
            return db.execute_sql(sql, params)
        try:
            return db.execute_sql(statement.execute_sql, params)
        except peewee.DatabaseError as error:
            if getattr(getattr(error, "orig", None), "pgcode", None) in _BROKEN_STATEMENT_CODES:
                self._held[connection] = None
                log.warning("prepared statements: connection runs text from now on (%s)", error)
            raise

    def _statement(self, sql: str, count: int) -> _Statement | None:
        try:
            return self._statements[sql]
        except KeyError:
            pass
        with self._lock:
            if sql not in self._statements:
                # A literal percent sign ("%%") would need unescaping in the PREPARE text: left as text.
                preparable = "%%" not in sql and sql.count("%s") == count
                self._statements[sql] = _Statement(f"compiled_{next(self._names)}", sql, count) if preparable else None
            return self._statements[sql]

    def _held_by(self, connection: Any) -> set[str] | None:
        try:
            return self._held[connection]
        except KeyError:
            with self._lock:
                return self._held.setdefault(connection, set())

    def _prepare(self, statement: _Statement, held: set[str]) -> bool:
        if statement.checked:
            db.execute_sql(statement.prepare_sql)
            held.add(statement.name)
            return True
        try:
            with db.atomic():  # a savepoint inside a transaction: a refusal leaves it usable
                db.execute_sql(statement.prepare_sql)
        except peewee.DatabaseError as error:
            if not _refused(error):  # the connection's trouble, not the statement's: as any error
                raise
            log.warning("prepared statements: %s runs as text (%s)", statement.prepare_sql[:120], error)
            with self._lock:
                self._statements[statement.sql] = None
            return False
        statement.checked = True
        held.add(statement.name)
        return True


def _refused(error: peewee.DatabaseError) -> bool:
    """PostgreSQL refused to prepare the statement itself (SQLSTATE class 42: a parameter whose type
    it cannot infer, say), as opposed to a lost connection or a timeout."""
    return str(getattr(getattr(error, "orig", None), "pgcode", None) or "").startswith("42")


prepared = PreparedStatements()
execute = prepared.execute

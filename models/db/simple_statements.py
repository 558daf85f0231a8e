"""peewee's two commonest statements, rendered once per shape instead of on every call.

Under load peewee's SQL rendering was about a quarter of the Python CPU of the API and of every
pool, and over half of it came from two shapes (``py-spy record --gil``, BENCHMARKS.md): a row looked
up by one column (``Model.get``, ``get_or_none`` and ``get_by_id`` with a single equality) and a new
row's INSERT (``Model.create``, ``save`` of a new instance). ``BaseModel`` sends those here; anything
else, or any shape whose SQL this module would not render exactly as peewee does, stays with peewee.

Lookups go through :class:`~models.db.compiled.Compiled`. An INSERT's SQL is written here from the
model's metadata and compared, the first time a shape is seen, with the SQL and parameters peewee
renders for the same row: the template is used only if both are identical, so a peewee that renders
differently costs speed, never correctness.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import peewee

from models.db import prepared
from models.db.compiled import Compiled
from models.db.database import db

log = logging.getLogger(__name__)

NOT_SIMPLE = object()  # returned by lookup() when peewee must run the query itself

_lookups: dict[tuple, Compiled | None] = {}
_inserts: dict[tuple, _InsertTemplate | None] = {}
_lock = threading.Lock()


def lookup(model: type[peewee.Model], expression: Any) -> Any:
    """The first row of ``model`` where ``expression`` (``Model.column == value``, a str or int
    value) holds, None when there is none, or NOT_SIMPLE for any other expression."""
    if not (
        type(expression) is peewee.Expression
        and expression.op == peewee.OP.EQ
        and isinstance(expression.lhs, peewee.Field)
        and expression.lhs.model is model
        and type(expression.rhs) in (str, int)
        and _passes_values_unchanged(expression.lhs)
    ):
        return NOT_SIMPLE
    field, value = expression.lhs, expression.rhs
    database = db.obj
    key = (model, field.name, type(value), type(database), database.param)
    compiled = _lookups.get(key, NOT_SIMPLE)
    if compiled is NOT_SIMPLE:
        with _lock:
            compiled = _lookups[key] = _lookup_query(model, field, type(value))
    if compiled is None:
        return NOT_SIMPLE
    return compiled.first(value)


def _passes_values_unchanged(field: peewee.Field) -> bool:
    """Columns whose database value of a str or int is that value (or a refusal the compile sees):
    text, integers and keys to them. A date column would parse a str that peewee converts."""
    if isinstance(field, peewee.ForeignKeyField):
        field = field.rel_field
    return isinstance(field, peewee.CharField | peewee.IntegerField) or (type(field) is peewee.TextField)


def _lookup_query(model: type[peewee.Model], field: peewee.Field, kind: type) -> Compiled | None:
    # As peewee's get(): every column, LIMIT 1.
    compiled: Compiled = Compiled(lambda argument: model.select().where(field == argument).limit(1), kind)
    try:
        compiled.prepare()
    except Exception:  # the column converts its value (a date, JSON): peewee renders each call
        log.debug("lookup of %s by %s is left to peewee", model.__name__, field.name, exc_info=True)
        return None
    return compiled


class _InsertTemplate:
    def __init__(self, sql: str, fields: list[peewee.Field], returning: bool) -> None:
        self.sql, self.fields, self.returning = sql, fields, returning

    def params(self, data: dict) -> list:
        return [field.db_value(data[field.name]) for field in self.fields]


def insert(instance: peewee.Model) -> bool:
    """INSERT ``instance`` as ``save(force_insert=True)`` would; False when peewee must do it."""
    meta = instance._meta
    pk_field = meta.primary_key
    if pk_field is False or meta.composite_key:
        return False
    data = instance.__data__.copy()
    instance._populate_unsaved_relations(data)
    pk_value = instance._pk
    if meta.auto_increment and pk_value is None:
        data.pop(pk_field.name, None)
    template = _template_for(type(instance), data, ignore_conflicts=False)
    if template is None:
        return False
    cursor = prepared.execute(template.sql, template.params(data))
    if meta.auto_increment or pk_value is None:
        pk = cursor.fetchone()[0] if template.returning else cursor.lastrowid
        if pk is not None:
            instance._pk = pk
            instance._dirty.discard(pk_field.name)
    instance._dirty -= set(data)
    return True


def insert_unless_present(model: type[peewee.Model], data: dict) -> bool:
    """``INSERT ... ON CONFLICT DO NOTHING`` of one row (field name -> value): True when it was
    inserted, False when a row with the same unique key was there (nothing raised, no savepoint)."""
    template = _template_for(model, data, ignore_conflicts=True)
    if template is None:
        return bool(model.insert(data).on_conflict_ignore().as_rowcount().execute())
    return prepared.execute(template.sql, template.params(data)).rowcount > 0


def _template_for(model: type[peewee.Model], data: dict, *, ignore_conflicts: bool) -> _InsertTemplate | None:
    if any(isinstance(value, peewee.Node | peewee.Model) for value in data.values()):
        return None  # an expression or a model instance as a value: peewee renders those
    database = db.obj
    key = (model, tuple(data), ignore_conflicts, type(database), database.param)
    template = _inserts.get(key, NOT_SIMPLE)
    if template is NOT_SIMPLE:
        with _lock:
            template = _inserts[key] = _insert_template(model, data, database, ignore_conflicts=ignore_conflicts)
    return template


def _insert_template(
    model: type[peewee.Model], data: dict, database: peewee.Database, *, ignore_conflicts: bool = False
) -> _InsertTemplate | None:
    meta = model._meta
    try:
        fields = sorted((meta.fields[name] for name in data), key=lambda field: field._sort_key)
    except KeyError:
        return None  # a value under a name that is not a field: peewee decides what that means
    table = peewee.quote((meta.table_name,), database.quote)
    columns = ", ".join(peewee.quote((field.column_name,), database.quote) for field in fields)
    placeholders = ", ".join([database.param] * len(fields))
    query = model.insert(**data)
    # As peewee executes them: the new row's key comes back through RETURNING where the database
    # has it; a conflict-ignoring insert answers a row count instead (SQLite: INSERT OR IGNORE).
    returning = bool(database.returning_clause) and not ignore_conflicts
    if ignore_conflicts and isinstance(database, peewee.SqliteDatabase):
        sql = f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({placeholders})"
    else:
        sql = f"INSERT INTO {table} ({columns}) VALUES ({placeholders})"
    if ignore_conflicts:
        query = query.on_conflict_ignore().as_rowcount()
        query._returning = None  # what Insert._execute does to a row-count insert before running it
        if not isinstance(database, peewee.SqliteDatabase):
            sql += " ON CONFLICT DO NOTHING"
    if returning:
        query = query.returning(meta.primary_key)
        sql += f" RETURNING {peewee.quote((meta.table_name, meta.primary_key.column_name), database.quote)}"
    template = _InsertTemplate(sql, fields, returning)
    expected = database.get_sql_context().sql(query).query()
    if expected != (sql, template.params(data)):
        log.warning("INSERT into %s is left to peewee: its SQL differs from the template (%s)", meta.table_name, sql)
        return None
    return template

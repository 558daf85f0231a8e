"""Queries whose SQL is rendered once per process.

peewee renders a query's SQL from its expression tree on every execution: under load that is about
a third of the CPU of the API and of the webhooks pool (``py-spy record --gil``, BENCHMARKS.md). A
hot query of fixed shape is built once with marker arguments; each call then runs the same SQL with
its own values where the markers were, and reads rows as peewee would (joined models included).

Arguments are ``str`` or ``int`` (their database value is the value itself), or a column
(``Proposal.updated_at``): the argument is then any value that column takes, converted by it at
each call (a datetime, a JSON document), and the build receives a placeholder node to put where
the value goes (``update(updated_at=at)``, ``where(Model.column == at)``). A build that transforms
an argument, or drops one, fails on first use rather than running wrong SQL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, Generic, TypeVar

import peewee

from models.db import prepared
from models.db.database import db
from models.db.fields import json_decoded_on_access

T = TypeVar("T")
Kind = type | peewee.Field

_INT_MARKER_BASE = -7_300_000_000_000


class _Placeholder(peewee.Node):
    """Where a column-converted argument goes: one parameter, its value set at each call."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index

    def __sql__(self, ctx):
        # As Context.value() adds a parameter; the parameter is this node until a call fills it.
        ctx._values.append(self)
        return ctx.literal(ctx.state.param or "?")


def _marker(kind: Kind, index: int) -> Any:
    if isinstance(kind, peewee.Field):
        return _Placeholder(index)
    if kind is str:
        return f"\x00compiled-argument-{index}\x00"
    if kind is int:
        return _INT_MARKER_BASE - index
    raise TypeError(f"compiled queries take str, int or column arguments, not {kind!r}")


# A row reader's state that belongs to one cursor (peewee's CursorWrapper.__init__); the rest of it
# is the set-up that initialize() derives from the query and the columns it selects.
_PER_CURSOR = frozenset({"cursor", "count", "index", "initialized", "populated", "row_cache"})


class _Template:
    def __init__(self, query: peewee.Query, sql: str, params: list, slots: list[int | None], kinds: tuple) -> None:
        self.query, self.sql, self.params = query, sql, params
        self.reader_setup: dict | None = None
        self.model_rows = isinstance(query, peewee.ModelSelect) and query._model_rows()
        # Per parameter: None (a constant of the query), or (argument index, converter or None).
        self.fill = [
            None if slot is None else (slot, kinds[slot].db_value if isinstance(kinds[slot], peewee.Field) else None)
            for slot in slots
        ]

    def rows(self, cursor) -> peewee.CursorWrapper:
        """peewee's row reader for ``cursor``. Its set-up (which column goes to which model and
        field, and through which converter: about 5 % of the API's CPU when done per call) depends
        on the SQL only, so it is done once and copied into each later reader."""
        wrapper = self.query._get_cursor_wrapper(cursor)
        if self.reader_setup is None:
            wrapper.initialize()
            wrapper.initialized = True
            self.reader_setup = {k: v for k, v in vars(wrapper).items() if k not in _PER_CURSOR}
        else:
            vars(wrapper).update(self.reader_setup)
            wrapper.initialized = True
        return wrapper

    def reading(self):
        """Model rows keep their JSON columns undecoded until read (fields.py); other row types
        (tuples, dicts) decode as they are read."""
        return json_decoded_on_access() if self.model_rows else nullcontext()

    def params_for(self, args: tuple) -> list:
        return [
            value if fill is None else (args[fill[0]] if fill[1] is None else fill[1](args[fill[0]]))
            for fill, value in zip(self.fill, self.params, strict=True)
        ]


class Compiled(Generic[T]):
    """``Compiled(build, str, int)``: ``build(proposal_id, sequence)`` returns the peewee query;
    ``first(...)``, ``all(...)``, ``exists(...)`` and ``execute(...)`` (UPDATE, DELETE: the row
    count) run it with those arguments."""

    def __init__(self, build: Callable[..., peewee.Query], *kinds: Kind) -> None:
        self._build, self._kinds = build, kinds
        self._templates: dict[tuple, _Template] = {}
        self._lock = threading.Lock()

    def prepare(self) -> None:
        """Render the SQL for the current database now (raises if the build cannot be compiled)."""
        self._template()

    def _template(self) -> _Template:
        database = db.obj
        key = (type(database), database.param)  # the SQL differs by dialect only
        template = self._templates.get(key)
        if template is None:
            with self._lock:
                template = self._templates.get(key) or self._compile(key)
        return template

    def _compile(self, key: tuple) -> _Template:
        markers = [_marker(kind, index) for index, kind in enumerate(self._kinds)]
        query = self._build(*markers)
        sql, params = query.sql()
        slots = [_slot(value, markers) for value in params]
        missing = set(range(len(markers))) - {slot for slot in slots if slot is not None}
        if missing:
            raise ValueError(f"compiled query {self._build.__qualname__}: arguments {sorted(missing)} not in its SQL")
        template = self._templates[key] = _Template(query, sql, params, slots, self._kinds)
        return template

    def _check(self, args: tuple) -> None:
        if len(args) != len(self._kinds) or not all(
            isinstance(kind, peewee.Field) or (isinstance(arg, kind) and not isinstance(arg, bool))
            for arg, kind in zip(args, self._kinds, strict=True)
        ):
            raise TypeError(f"compiled query {self._build.__qualname__} takes {self._kinds}, got {args!r}")

    def _run(self, args: tuple) -> tuple[_Template, Any]:
        """Check the arguments and execute the query with them: its template and cursor."""
        self._check(args)
        template = self._template()
        return template, prepared.execute(template.sql, template.params_for(args))

    def first(self, *args: Any) -> T | None:
        """The first row, as the query's model (with its joined models), or None."""
        template, cursor = self._run(args)
        with template.reading():
            for row in template.rows(cursor):
                return row
        return None

    def all(self, *args: Any) -> list[T]:
        """Every row, as the query's model (with its joined models)."""
        template, cursor = self._run(args)
        with template.reading():
            return list(template.rows(cursor))

    def execute(self, *args: Any) -> int:
        """Run an UPDATE or DELETE; the number of rows it changed."""
        return self._run(args)[1].rowcount

    def exists(self, *args: Any) -> bool:
        """Whether the query returns a row."""
        return self._run(args)[1].fetchone() is not None


def _slot(value: object, markers: list) -> int | None:
    for index, marker in enumerate(markers):
        if type(value) is type(marker) and value == marker:
            return index
    return None


class CompiledUpdate:
    """``CompiledUpdate(Model, where, *kinds)``: an UPDATE of ``Model`` whose SET columns vary by
    call (an analysis outcome's own columns, a destination saved or cleared), on the rows
    ``where(*arguments)`` selects; ``execute({"column": value, ...}, *arguments)`` runs it.

    Each set of columns is its own SQL, so each gets its own ``Compiled`` (values converted by their
    columns, as peewee does): the sets named in ``shapes`` are built here (listed by
    ``statements()``, so they can be checked like any other), any other on its first use. The set
    is keyed by its sorted column names, so the order of the dict's keys does not matter."""

    def __init__(
        self,
        model: type[peewee.Model],
        where: Callable[..., peewee.Expression],
        *kinds: Kind,
        shapes: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self._model, self._where, self._kinds = model, where, kinds
        self._by_columns: dict[tuple[str, ...], Compiled] = {}
        for names in shapes:
            self._statement(tuple(sorted(names)))

    def execute(self, values: dict[str, Any], *arguments: Any) -> int:
        """Set ``values`` on the rows ``where(*arguments)`` selects; the number of rows changed."""
        names = tuple(sorted(values))
        return self._statement(names).execute(*(values[name] for name in names), *arguments)

    def statements(self) -> list[Compiled]:
        """The statements built so far, one per set of columns."""
        return list(self._by_columns.values())

    def _statement(self, names: tuple[str, ...]) -> Compiled:
        statement = self._by_columns.get(names)
        if statement is None:  # setdefault: two threads building the same set keep one of them
            statement = self._by_columns.setdefault(names, self._compile(names))
        return statement

    def _compile(self, names: tuple[str, ...]) -> Compiled:
        columns = [self._model._meta.fields[name] for name in names]

        def build(*arguments: Any) -> peewee.Query:
            values, where_arguments = arguments[: len(columns)], arguments[len(columns) :]
            return self._model.update(dict(zip(columns, values, strict=True))).where(self._where(*where_arguments))

        build.__qualname__ = f"{self._model.__name__} UPDATE of {', '.join(names)}"
        return Compiled(build, *columns, *self._kinds)

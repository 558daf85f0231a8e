"""Where PostgreSQL spends its time during the flow: ``pg_stat_statements`` on a private server.

``python -m bench.full_flow --statements 25`` runs the flow on a throw-away PostgreSQL started with
the extension preloaded (the shared server is not restarted for it), resets the statistics once the
service is up, and prints the statements that took the most execution time, per proposal. Figures
are the server's own (``total_exec_time``: time inside the statement, lock waits included; commits
are not statements and are not counted). Only their ranking is meant to be compared with the shared
server's runs: the private one keeps PostgreSQL's default settings.
"""

from __future__ import annotations

import re

from bench.services import run_sql

SERVER_SETTINGS = {
    "shared_preload_libraries": "pg_stat_statements",
    "pg_stat_statements.track": "top",
    "pg_stat_statements.max": "5000",
}


def reset(database_url: str) -> None:
    """Create the extension in the bench database and start counting from now."""
    run_sql(database_url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    run_sql(database_url, "SELECT pg_stat_statements_reset()")


def top(database_url: str) -> list[tuple[int, float, int, str]]:
    """Every statement run in the bench database since ``reset``: (calls, total ms, rows, text),
    the most expensive first."""
    return run_sql(
        database_url,
        "SELECT calls, total_exec_time, rows, query FROM pg_stat_statements"
        " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
        " ORDER BY total_exec_time DESC",
    )


def _short(query: str, width: int = 110) -> str:
    text = re.sub(r"\s+", " ", query).strip()
    return text if len(text) <= width else text[: width - 3] + "..."


def print_top(statements: list[tuple[int, float, int, str]], proposals: int, limit: int) -> None:
    total = sum(row[1] for row in statements) or 1.0
    per = max(1, proposals)
    calls = sum(row[0] for row in statements)
    print(
        f"\nPostgreSQL statements (pg_stat_statements, private server): {calls / per:.1f} per proposal, "
        f"{total / per:.1f} ms of execution per proposal; the {limit} costliest:"
    )
    print(f"  {'share':>6} {'ms/prop':>8} {'calls/prop':>10} {'ms/call':>8} {'rows/call':>9}  statement")
    for count, spent, rows, query in statements[:limit]:
        print(
            f"  {spent * 100 / total:5.1f}% {spent / per:8.2f} {count / per:10.2f} {spent / max(1, count):8.3f}"
            f" {rows / max(1, count):9.1f}  {_short(query)}"
        )

"""A store's schema as facts that do not depend on how its DDL was spelled, for comparing stores."""

from __future__ import annotations

import re
import sqlite3
from typing import Any


def checks(sql: str) -> list[str]:
    """The CHECK expressions in a CREATE TABLE statement, spaces folded, in order."""
    found = []
    for match in re.finditer(r"CHECK\s*\(", sql, flags=re.IGNORECASE):
        depth, start = 1, match.end()
        position = start
        while depth:
            depth += {"(": 1, ")": -1}.get(sql[position], 0)
            position += 1
        found.append(" ".join(sql[start : position - 1].split()))
    return found


def module(sql: str) -> str | None:
    """A virtual table's module and arguments (`fts5(...)`), spaces folded; None for a table."""
    match = re.match(
        r"\s*CREATE\s+VIRTUAL\s+TABLE\s+.*?\bUSING\s+(.*)$", sql, flags=re.IGNORECASE | re.DOTALL
    )
    return None if match is None else re.sub(r"\s*([(),])\s*", r"\1", " ".join(match[1].split()))


def sqlite_schema(connection: sqlite3.Connection) -> dict[str, Any]:
    """Every table's columns, keys, checks, indexes, rowid form and virtual table module, and the
    planner statistics."""
    tables: dict[str, Any] = {}
    rows = connection.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    for name, sql in rows.fetchall():
        if name.startswith("sqlite_"):
            continue
        indexes = {}
        for _, index, unique, origin, _partial in connection.execute(f"PRAGMA index_list({name})"):
            columns = [row[2] for row in connection.execute(f"PRAGMA index_xinfo({index})") if row[5]]
            indexes[index if origin == "c" else f"{origin}:{columns}"] = (unique, columns)
        tables[name] = {
            "columns": [row[1:6] for row in connection.execute(f"PRAGMA table_xinfo({name})")],
            "foreign_keys": sorted(
                row[2:5] for row in connection.execute(f"PRAGMA foreign_key_list({name})")
            ),
            "checks": sorted(checks(sql)),
            "without_rowid": "WITHOUT ROWID" in sql.upper(),
            "autoincrement": "AUTOINCREMENT" in sql.upper(),
            "indexes": indexes,
            "module": module(sql),
        }
    analysed = connection.execute("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").fetchone()
    statistics = (
        sorted(connection.execute("SELECT tbl, idx, stat FROM sqlite_stat1").fetchall()) if analysed else []
    )
    return {"tables": tables, "statistics": statistics}


def postgres_schema(connection: Any) -> dict[str, Any]:
    """Every table's columns, constraints, indexes and policies, and every function, in the connection's
    schema."""

    def rows(sql: str) -> list[tuple[Any, ...]]:
        return sorted(tuple(row) for row in connection.execute(sql).fetchall())

    columns = rows(
        "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default,"
        " is_identity, collation_name, is_generated, generation_expression"
        " FROM information_schema.columns WHERE table_schema = current_schema()"
    )
    constraints = rows(
        "SELECT c.conrelid::regclass::text, c.contype, pg_get_constraintdef(c.oid) FROM pg_constraint c"
        " JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = current_schema()"
    )
    indexes = rows(
        "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
    )
    policies = rows(
        "SELECT tablename, policyname, cmd, qual, with_check FROM pg_policies WHERE schemaname = current_schema()"
    )
    secured = rows(
        "SELECT relname, relrowsecurity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relkind = 'r'"
    )
    functions = rows(
        "SELECT p.proname, pg_get_function_identity_arguments(p.oid), p.prosecdef, p.proconfig::text,"
        " p.prosrc, p.proacl::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = current_schema()"
    )
    return {
        "columns": columns,
        "constraints": constraints,
        "indexes": indexes,
        "policies": policies,
        "secured": secured,
        "functions": functions,
    }

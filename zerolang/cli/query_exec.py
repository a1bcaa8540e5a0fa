"""What `zero query` does once its command line is read, without typer (`zerolang.cli.fast` runs it too)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from zerolang.cli.terminal import echo
from zerolang.util.escapes import escaped, escaped_lines, json_text

if TYPE_CHECKING:
    from zerolang.knowledge.query.executor import QueryResult
    from zerolang.knowledge.store import MemoryStore


def execute(
    text: str,
    db: str | Path | None,
    space: str,
    *,
    as_json: bool = False,
    explain: bool = False,
    now: str | None = None,
    no_touch: bool = False,
) -> None:
    """Parse the query, run it on the store, print the results (a ZeroError for anything wrong)."""
    from zerolang.cli.stores import as_of, damaged_store_errors, open_memory_store
    from zerolang.knowledge.query.executor import run_query
    from zerolang.knowledge.query.parser import parse_query
    from zerolang.memory.opening import storage_errors

    parsed = parse_query(text)  # a bad query fails before the database is opened
    clock = as_of(now)
    document_text: str | None = None
    with damaged_store_errors(db, space):  # a row edited by hand may only fail when printed
        with storage_errors(), open_memory_store(db, create=False, space=space) as store:
            result = run_query(store, parsed, clock=clock, touch=not no_touch)
            if parsed.detail is not None:
                document_text = _at_level(store, result, parsed.detail)
        _print_result(result, document_text, parsed.detail, as_json, explain)


def _print_result(
    result: QueryResult, document_text: str | None, detail: str | None, as_json: bool, explain: bool
) -> None:
    for note in result.notes:
        sys.stderr.write(f"note: {escaped(note, exact=False)}\n")
    if document_text is not None:
        if as_json:
            answer = {"level": detail, "document": document_text, "results": result.rows}
            sys.stdout.write(json_text(answer) + "\n")
        else:
            shown = escaped_lines(document_text, exact=False)  # a .0c document, for a human to read
            sys.stdout.write(shown if shown.endswith("\n") else shown + "\n")
        return
    if as_json:
        document: object = {"plan": result.plan, "results": result.rows} if explain else result.rows
        sys.stdout.write(json_text(document) + "\n")
        return
    if explain:
        echo("plan:")
        echo("\n".join(f"  {i}. {step}" for i, step in enumerate(result.plan, 1)))
    _print_table(result, explain)


def _at_level(store: MemoryStore, result: QueryResult, level: str) -> str:
    """The facts behind the results as a document of their own, at detail level L0, L1 or L2 (`.0c`)."""
    from zerolang.knowledge.formats.levels import Level, render
    from zerolang.knowledge.formats.model import read_facts

    return render(read_facts(store, result.facts), Level(level))


def _columns(result: QueryResult, explain: bool) -> list[str]:
    if result.kind == "match":
        return [*(f"?{name}" for name in result.variables), "confidence", "facts"]
    factors = ["confidence", "recency", "frequency", "connectivity"]
    if result.rows and "activation" in result.rows[0]["factors"]:  # type: ignore[operator]
        factors.append("activation")
    return ["#", "concept", "depth", "score", *(factors if explain else []), "via"]


def _cells(row: dict[str, object], kind: str, columns: list[str]) -> list[str]:
    if kind == "match":
        bindings: dict[str, str] = row["bindings"]  # type: ignore[assignment]
        facts: list[str] = row["facts"]  # type: ignore[assignment]
        return [
            *(bindings[c[1:]] for c in columns if c.startswith("?")),
            f"{row['confidence']:.3f}",
            "; ".join(facts),
        ]
    factors: dict[str, float] = row["factors"]  # type: ignore[assignment]
    path: list[str] = row["path"]  # type: ignore[assignment]
    cells = [str(row["rank"]), str(row["concept"]), str(row["depth"]), f"{row['score']:.3f}"]
    cells += [f"{factors[c]:.3f}" for c in columns[4:-1]]
    return [*cells, path[-1]]


def _print_table(result: QueryResult, explain: bool) -> None:
    if not result.rows:
        echo("no results")
        return
    columns = _columns(result, explain)
    rows = [[escaped(cell) for cell in _cells(row, result.kind, columns)] for row in result.rows]
    from zerolang.cli.terminal import console, fancy

    if fancy():
        from rich.table import Table
        from rich.text import Text

        table = Table(show_lines=False)
        for column in columns:
            table.add_column(Text(escaped(column)))
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))  # Text, not markup: a label `[b]x` is data
        console().print(table)
        return
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    echo("\n".join(lines))

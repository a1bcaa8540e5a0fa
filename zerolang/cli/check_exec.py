"""`zero check`'s work once its options are read, without typer (the fast path calls it directly)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zerolang.util.walk import Exclusions

SUFFIXES = (".0", ".0c")


def check_paths(
    paths: list[str],
    as_json: bool,
    *,
    quiet: bool = False,
    stdin_name: str | None = None,
    exclusions: Exclusions | None = None,
) -> int:
    """Check each file (folders searched) and print the outcome; the exit code (1 if any has a problem).

    `quiet` prints only the problems; `stdin_name` names the document read from `-` (its kind follows
    its suffix); `exclusions` are the command line's `--exclude` and `--extend-exclude`.
    """
    from zerolang.cli.stdin import STDIN
    from zerolang.cli.terminal import echo
    from zerolang.util.walk import find_sources

    files: list[str] = (
        [STDIN]
        if paths == [STDIN]
        else [str(file) for file in find_sources([Path(p) for p in paths], SUFFIXES, exclusions)]
    )
    if not files:
        raise _no_files(paths)
    from zerolang.util.gcpause import paused_gc

    # Paused for all files, not per step: re-enabled between the steps, the collector walks every
    # node of a big tree again. A check makes no reference cycles for it to find.
    with paused_gc():
        reports = [_check_one(file, stdin_name) for file in files]
    failed = sum(1 for report in reports if not report["ok"])
    if as_json:
        from zerolang.cli.output import print_json

        print_json([{key: value for key, value in report.items() if key != "error"} for report in reports])
    else:
        from zerolang.cli.output import print_error
        from zerolang.util.escapes import escaped

        for report in reports:
            if not report["ok"]:
                print_error(report["error"])
            elif not quiet:
                echo(f"{escaped(report['path'])}: ok ({escaped(report['summary'], exact=False)})")
        if failed and not quiet:
            verb = "has" if failed == 1 else "have"
            echo(f"{failed} of {len(reports)} files {verb} problems", err=True)
    return 1 if failed else 0


def _no_files(paths: list[str]) -> Exception:
    from zerolang.util.errors import ZeroError

    return ZeroError(f"no .0 or .0c files under {', '.join(paths)}")


def _check_one(file: str, stdin_name: str | None = None) -> dict[str, Any]:
    """One file's outcome: `ok` and a summary, or the error and its problems (JSON-ready)."""
    from zerolang.cli.stdin import NAME, STDIN, is_compact, read_stdin
    from zerolang.runtime.arity import input_counts
    from zerolang.runtime.validator import validate
    from zerolang.syntax.parser import parse, read_source
    from zerolang.util.errors import ValidationError, ZeroError
    from zerolang.util.limits import MAX_DIAGNOSTICS

    name = (stdin_name or NAME) if file == STDIN else file
    try:
        source = read_stdin() if file == STDIN else read_source(file)
        compact = name.endswith(".0c") or (name == NAME and is_compact(source))
        if compact:
            source = source.removeprefix("\ufeff")  # a byte order mark is the file's start (util.lines.BOM)
            return {"path": name, "ok": True, "summary": _check_compact(source, name), "problems": []}
        graph = parse(source, name)
        problems = validate(graph, name)
        counts = input_counts(graph, name)  # runs, but not as it reads: an error for `check` too
        if counts:
            problems = sorted(problems + counts, key=lambda found: found.span.start if found.span else 0)
        if problems:
            raise ValidationError(problems, source=source)
    except ValidationError as error:
        error.with_traceback(None)  # the report keeps the error, not this frame (and its whole graph)
        shown = error.diagnostics[:MAX_DIAGNOSTICS]
        found = [_problem(d.code, d.message, d.span, str(d.severity)) for d in shown]
        report = {"path": name, "ok": False, "summary": None, "problems": found, "error": error}
        if len(error.diagnostics) > len(shown):
            report["more_problems"] = len(error.diagnostics) - len(shown)
        return report
    except ZeroError as error:
        problem = _problem(None, error.message.removeprefix(f"{name}: "), error.span, "error")
        return {"path": name, "ok": False, "summary": None, "problems": [problem], "error": error}
    return {"path": name, "ok": True, "summary": f"{len(graph.nodes)} nodes", "problems": []}


def _problem(code: str | None, message: str, span: Any, severity: str) -> dict[str, Any]:
    where: dict[str, Any] = {"line": None, "column": None, "end_line": None, "end_column": None}
    if span is not None and span.line:
        where = {
            "line": span.line,
            "column": span.column,
            "end_line": span.end_line,
            "end_column": span.end_column,
        }
    return {"code": code, "severity": severity, "message": message, **where}


def _check_compact(source: str, path: str) -> str:
    """A `.0c` document parses and every hash it implies is recomputed: what it holds, in words."""
    from zerolang.knowledge.formats.compact import parse as parse_compact
    from zerolang.knowledge.formats.levels import level_of

    level = level_of(source)
    if str(level) != "L2":
        return f"{level} document: a lossy export, checked by `zero lint`"
    snapshot = parse_compact(source, path)
    return f"{len(snapshot.concepts)} concepts, {len(snapshot.relations)} relations"

"""Shared helpers for the lint tests: the case files and reports as plain text."""

from __future__ import annotations

from pathlib import Path

from zerolang.tools.lint import Finding, lint_source
from zerolang.tools.lint.report import Format, render
from zerolang.tools.lint.runner import FileResult
from zerolang.util.config import Settings

CASES = Path(__file__).resolve().parent / "cases"
ROOT = Path(__file__).resolve().parents[3]


def case(code: str, kind: str) -> Path:
    return CASES / f"{code}_{kind}.0"


def lint_text(source: str, name: str = "t.0", settings: Settings | None = None) -> list[Finding]:
    return lint_source(source, name, settings)


def codes(source: str, settings: Settings | None = None) -> list[str | None]:
    return [finding.code for finding in lint_text(source, settings=settings)]


def report(source: str, name: str = "t.0", output_format: Format = Format.TEXT) -> str:
    """The report `zero lint` prints for one file named `name`."""
    result = FileResult(name, source, lint_text(source, name))
    return render([result], output_format)


def graph(*nodes: str, outputs: str = "[]") -> str:
    """A small graph, one node per line; a node may end in a `  # comment`, kept after its comma."""
    body = "".join(f"        {_comma(node)}\n" for node in nodes)
    return f'Graph {{\n    name: "t",\n    nodes: [\n{body}    ],\n    outputs: {outputs},\n}}\n'


def _comma(node: str) -> str:
    head, newline, last = node.rpartition("\n")
    code, mark, comment = last.partition("  #")
    return f"{head}{newline}{code.rstrip().rstrip(',')},{mark}{comment}"

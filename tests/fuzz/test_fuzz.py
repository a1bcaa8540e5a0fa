"""Issue 15, point 9: the fuzz suite that stays. Every reader and tool is driven with grammar-aware
hostile text (tests/fuzz/hostile.py) and may only answer with a result or our own `ZeroError`:
never another exception, never an internal error (exit 3) from the command line.

Runs under the `ci` hypothesis profile (tests/conftest.py); `HYPOTHESIS_PROFILE=long` runs more,
and `fuzz/` holds the atheris harness for coverage-guided runs of hours.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.budget import scaled
from tests.fuzz.hostile import (
    compact_sources,
    grammar_compact,
    grammar_queries,
    json_sources,
    query_sources,
    zero_sources,
)
from zerolang.cli.app import app
from zerolang.knowledge.formats.compact import format_text
from zerolang.knowledge.formats.compact import parse as parse_compact
from zerolang.knowledge.formats.jsonform import loads as load_json_export
from zerolang.knowledge.ingest import parse_inputs
from zerolang.knowledge.query import parse_query
from zerolang.runtime.interpreter import run
from zerolang.runtime.validator import validate
from zerolang.syntax.parser import parse
from zerolang.tools.formatter import format_source
from zerolang.tools.highlight import ZeroCompactLexer, ZeroLexer
from zerolang.tools.lint import fix_source, lint_source
from zerolang.tools.lint.compact import findings as compact_findings
from zerolang.util.errors import ZeroError
from zerolang.util.files import parse_json
from zerolang.util.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
SMALL = Limits(max_value_bytes=1 << 20, max_run_bytes=1 << 23)


def ours(call: object, *args: object, **kwargs: object) -> object | None:
    """The call's result, or None when it raised our error; anything else fails the test."""
    try:
        return call(*args, **kwargs)  # type: ignore[operator]
    except ZeroError:
        return None


@settings(max_examples=scaled(150))
@given(zero_sources)
def test_zero_parser_validator_and_interpreter(text: str) -> None:
    graph = ours(parse, text, "fuzz.0")
    if graph is None:
        return
    diagnostics = validate(graph)  # type: ignore[arg-type]
    if not diagnostics:
        ours(run, graph, {}, max_steps=200, limits=SMALL)


@settings(max_examples=scaled(100))
@given(zero_sources)
def test_formatter_output_parses_and_is_stable(text: str) -> None:
    formatted = ours(format_source, text, "fuzz.0")
    if formatted is None:
        return
    assert isinstance(formatted, str)
    parse(formatted, "formatted.0")
    assert format_source(formatted, "formatted.0") == formatted


@settings(max_examples=scaled(100))
@given(zero_sources, st.booleans())
def test_linter_and_fixes(text: str, unsafe: bool) -> None:
    assert isinstance(lint_source(text, "fuzz.0"), list)
    result = ours(fix_source, text, "fuzz.0", unsafe=unsafe)
    if result is not None:
        parse(result.source, "fixed.0")  # type: ignore[attr-defined]


@settings(max_examples=scaled(150))
@given(compact_sources)
def test_compact_reader_linter_and_formatter(text: str) -> None:
    ours(parse_compact, text, "fuzz.0c")
    assert isinstance(compact_findings(text, "fuzz.0c"), list)
    formatted = ours(format_text, text, "fuzz.0c")
    if formatted is not None:
        parse_compact(formatted, "formatted.0c")  # type: ignore[arg-type]


@settings(max_examples=scaled(150))
@given(query_sources)
def test_query_parser(text: str) -> None:
    ours(parse_query, text)


@settings(max_examples=scaled(100))
@given(json_sources)
def test_json_readers(text: str) -> None:
    ours(parse_json, text, "fuzz.json")
    ours(parse_inputs, text, "fuzz.json")
    ours(load_json_export, text, "fuzz.json")


@settings(max_examples=scaled(100))
@given(st.one_of(zero_sources, compact_sources))
def test_highlighters_never_fail(text: str) -> None:
    for lexer in (ZeroLexer(), ZeroCompactLexer()):
        for _ in lexer.get_tokens(text):
            pass


runner = CliRunner()


@settings(max_examples=scaled(15))
@given(document=st.one_of(zero_sources.map(lambda t: (".0", t)), compact_sources.map(lambda t: (".0c", t))))
@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["lint"], ["viz"]])
def test_commands_never_crash(
    command: list[str], document: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    suffix, text = document
    if command == ["viz"] and suffix == ".0c":
        return
    path: Path = tmp_path_factory.mktemp("fuzz") / f"f{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = runner.invoke(app, [*command, str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), (result.exit_code, result.output)


@settings(max_examples=scaled(150))
@given(grammar_compact)
def test_grammar_aware_compact_documents(text: str) -> None:
    ours(parse_compact, text, "fuzz.0c")
    assert isinstance(compact_findings(text, "fuzz.0c"), list)
    ours(format_text, text, "fuzz.0c")


@settings(max_examples=scaled(150))
@given(grammar_queries)
def test_grammar_aware_queries(text: str) -> None:
    ours(parse_query, text)


def test_parse_time_bench_finishes() -> None:
    """benches/bench_readers.py at tiny sizes: it runs (time per byte is the bench's to show)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_readers", ROOT / "benches" / "bench_readers.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.measure([256, 1024])
    assert len(rows) == len(bench.CASES)

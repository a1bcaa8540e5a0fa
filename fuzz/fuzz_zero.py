"""Coverage-guided fuzzing of every zerolang reader with atheris (libFuzzer for Python).

    python -m pip install -e ".[fuzz]"
    python fuzz/fuzz_zero.py fuzz/corpus -max_total_time=3600 -artifact_prefix=fuzz/findings/

Each input's first byte picks a target, the rest is the text (inputs that are not
UTF-8 are skipped: the file readers refuse them before any of these targets runs):

    0 .0 parser, validator and interpreter (small limits)
    1 formatter (its output must parse and be stable)
    2 linter and fixes
    3 .0c reader, linter and formatter
    4 query parser
    5 JSON readers (run inputs, memory inputs, exports)
    6 Pygments lexers

A target may return or raise `ZeroError`; any other exception is a finding:
atheris stops and writes the input as `crash-<sha1>` (reproduce with
`python fuzz/fuzz_zero.py crash-<sha1>`). Seed the corpus with real files
first: `python fuzz/fuzz_zero.py --seed fuzz/corpus`. Every finding becomes a
regression test in `tests/` (and the hostile pattern behind it a strategy in
`tests/fuzz/hostile.py`, which the test suite runs on every commit).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zerolang.util.errors import ZeroError  # noqa: E402


def _zero(text: str) -> None:
    from zerolang.runtime.interpreter import run
    from zerolang.runtime.validator import validate
    from zerolang.syntax.parser import parse
    from zerolang.util.limits import Limits

    graph = parse(text, "fuzz.0")
    if not validate(graph):
        run(graph, {}, max_steps=200, limits=Limits(max_value_bytes=1 << 20, max_run_bytes=1 << 23))


def _format(text: str) -> None:
    from zerolang.syntax.parser import parse
    from zerolang.tools.formatter import format_source

    formatted = format_source(text, "fuzz.0")
    parse(formatted, "formatted.0")
    if format_source(formatted, "formatted.0") != formatted:
        raise AssertionError("the formatter is not idempotent")


def _lint(text: str) -> None:
    from zerolang.tools.lint import fix_source, lint_source

    lint_source(text, "fuzz.0")
    fix_source(text, "fuzz.0", unsafe=True)


def _compact(text: str) -> None:
    from zerolang.knowledge.formats.compact import format_text, parse
    from zerolang.tools.lint.compact import findings

    findings(text, "fuzz.0c")
    parse(text, "fuzz.0c")
    parse(format_text(text, "fuzz.0c"), "formatted.0c")


def _query(text: str) -> None:
    from zerolang.knowledge.query import parse_query

    parse_query(text)


def _json(text: str) -> None:
    from zerolang.knowledge.formats.jsonform import loads
    from zerolang.knowledge.ingest import parse_inputs
    from zerolang.util.files import parse_json

    for reader in (parse_json, parse_inputs, loads):
        with contextlib.suppress(ZeroError):
            reader(text, "fuzz.json")


def _highlight(text: str) -> None:
    from zerolang.tools.highlight import ZeroCompactLexer, ZeroLexer

    for lexer in (ZeroLexer(), ZeroCompactLexer()):
        for _ in lexer.get_tokens(text):
            pass


TARGETS: list[Callable[[str], None]] = [_zero, _format, _lint, _compact, _query, _json, _highlight]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    target = TARGETS[data[0] % len(TARGETS)]
    try:
        text = data[1:].decode("utf-8")
    except UnicodeDecodeError:
        return  # every reader gets text from files.read_text, which refuses bytes that are not UTF-8
    with contextlib.suppress(ZeroError):
        target(text)


def seed(folder: Path) -> None:
    """Write the repository's example and test files into `folder`, one per target that reads them."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = [*ROOT.glob("examples/**/*.0"), *ROOT.glob("tests/**/*.0")]
    compact = [*ROOT.glob("tests/**/*.0c")]
    json_files = [*ROOT.glob("examples/*.json")]
    count = 0
    for files, targets in ((sources, (0, 1, 2, 6)), (compact, (3, 6)), (json_files, (5,))):
        for path in files:
            for target in targets:
                (folder / f"seed-{target}-{count}").write_bytes(bytes([target]) + path.read_bytes())
                count += 1
    for number, query in enumerate(["recall agent depth 2 limit 5", "match (?a needs ?b), (?b ?p ?c) as L1"]):
        (folder / f"seed-4-q{number}").write_bytes(b"\x04" + query.encode())
    print(f"wrote {count + 2} seeds to {folder}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--seed":
        seed(Path(sys.argv[2]))
        return
    import atheris  # type: ignore[import-untyped]

    # Coverage feedback from zerolang's own code only (instrumenting lark and the standard
    # library too takes minutes and steers the fuzzer towards their branches).
    with atheris.instrument_imports(include=["zerolang"]):
        import zerolang.knowledge.formats.compact
        import zerolang.knowledge.formats.jsonform
        import zerolang.knowledge.ingest
        import zerolang.knowledge.query
        import zerolang.runtime.interpreter
        import zerolang.runtime.validator  # noqa: F401
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

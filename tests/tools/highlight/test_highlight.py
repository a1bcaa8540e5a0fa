"""The Pygments lexers: golden token streams, no `Error` on valid text, and discovery through the entry point.

`ZeroLexer` reads `.0` graphs, `ZeroCompactLexer` the `.0c` compact memory
format (samples of L0, L1, L2, a delta, quoting and declarations in `samples/`).

Golden files are `golden/<stem>.tokens`, one `TokenType<TAB>repr(value)` per
token. After a deliberate change to the lexer, regenerate them and review the diff:

    python tests/tools/highlight/test_highlight.py --update
    (or: ZERO_UPDATE_GOLDEN=1 python -m pytest tests/tools/highlight)

`Error` tokens: none on any file under examples/ or schema/; under tests/,
exactly in the files the grammar's own lexer rejects (a fixture may hold
invalid text on purpose: tests/editors/samples/lexical_errors.0). A file that lexes but does not parse (a missing comma, two
graphs in one file) highlights without `Error`: structure is the parser's job.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from pygments.token import Error, Keyword, Name, Token, _TokenType

ROOT = Path(__file__).resolve().parents[3]
if __name__ == "__main__":  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from tests.budget import scaled  # noqa: E402
from tests.editors.common import SOURCES as EDITOR_SOURCES  # noqa: E402
from tests.knowledge.formats.strategies import histories, records  # noqa: E402
from tests.strategies import commented_graphs, runnable_graphs  # noqa: E402
from zerolang.knowledge.formats.compact import parse as compact_parse  # noqa: E402
from zerolang.knowledge.formats.compact import serialize as compact_serialize  # noqa: E402
from zerolang.knowledge.formats.levels import Level  # noqa: E402
from zerolang.knowledge.formats.levels import render as render_level  # noqa: E402
from zerolang.knowledge.formats.model import read_store  # noqa: E402
from zerolang.knowledge.types import MemoryRecord  # noqa: E402
from zerolang.runtime.catalog import NODE_TYPES, OPS  # noqa: E402
from zerolang.storage import open_store  # noqa: E402
from zerolang.syntax.ast import Graph  # noqa: E402
from zerolang.syntax.grammar import grammar_path  # noqa: E402
from zerolang.syntax.parser import parse  # noqa: E402
from zerolang.syntax.printer import print_graph  # noqa: E402
from zerolang.tools.highlight import (  # noqa: E402
    ALIAS,
    CONCEPT_ID,
    CONCEPT_LABEL,
    FIELD_VALUE,
    KNOWN_OP,
    KNOWN_TYPE,
    PREDICATE,
    SCOPE,
    SETTING,
    SHORT_HASH,
    SOURCE,
    TIME,
    UNKNOWN_NAME,
    ZeroCompactLexer,
    ZeroLexer,
)
from zerolang.util.errors import ZeroError, ZeroSyntaxError  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SOURCES = EDITOR_SOURCES  # every example, the schema, tour.0, the .0c samples and an invalid .0 sample
UPDATE = os.environ.get("ZERO_UPDATE_GOLDEN") == "1"


def tokens(text: str) -> list[tuple[_TokenType, str]]:
    return list(ZeroLexer().get_tokens(text))


def compact_tokens(text: str) -> list[tuple[_TokenType, str]]:
    return list(ZeroCompactLexer().get_tokens(text))


def render(text: str, compact: bool = False) -> str:
    found = compact_tokens(text) if compact else tokens(text)
    return "".join(f"{kind}\t{value!r}\n" for kind, value in found)


def render_file(source: Path) -> str:
    """The token stream of a file, by the lexer its suffix names."""
    return render(source.read_text(encoding="utf-8"), compact=source.suffix == ".0c")


def golden_path(source: Path) -> Path:
    return GOLDEN / f"{source.stem}.tokens"


def update_all() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for source in SOURCES:
        golden_path(source).write_text(render_file(source), encoding="utf-8")


def test_golden_names_are_unique() -> None:
    assert len({source.stem for source in SOURCES}) == len(SOURCES)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_golden_tokens(source: Path) -> None:
    actual = render_file(source)
    golden = golden_path(source)
    if UPDATE:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden file: run `python {Path(__file__).relative_to(ROOT)} --update`"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs: if the change is intended, run "
        f"`python {Path(__file__).relative_to(ROOT)} --update` and review the diff"
    )


def walk(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.0"))


@pytest.mark.parametrize("source", walk("examples") + walk("schema"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_error_token_in_examples_and_schema(source: Path) -> None:
    found = [(kind, value) for kind, value in tokens(source.read_text(encoding="utf-8")) if kind in Error]
    assert found == []


@functools.cache
def grammar_lexer() -> Any:
    from lark import Lark

    return Lark.open(str(grammar_path("zero")), parser="lalr", lexer="basic")


def lexically_valid(text: str) -> bool:
    """What the `.0` grammar's own lexer accepts, with every string escape one JSON accepts."""
    from lark.exceptions import LexError

    try:
        strings = [token for token in grammar_lexer().lex(text) if token.type == "STRING"]
    except LexError:
        return False
    try:
        for token in strings:
            json.loads(token, strict=False)
    except json.JSONDecodeError:
        return False
    return True


@pytest.mark.parametrize("source", walk("tests"), ids=lambda p: str(p.relative_to(ROOT)))
def test_error_tokens_in_test_files_exactly_when_the_grammar_rejects_the_text(source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    errors = [value for kind, value in tokens(text) if kind in Error]
    if lexically_valid(text):
        assert errors == []
    else:
        assert errors, "the grammar's lexer rejects this text, so the highlighter should mark it"


def test_tokens_cover_the_text_exactly() -> None:
    text = (ROOT / "examples" / "router.0").read_text(encoding="utf-8")
    assert "".join(value for _, value in tokens(text)) == text


def kinds_of(text: str) -> dict[str, _TokenType]:
    """The token type of each distinct non-blank value (the last one wins)."""
    return {value: kind for kind, value in tokens(text) if value.strip()}


def test_known_and_unknown_types_and_ops() -> None:
    kinds = kinds_of(
        'Graph { nodes: [ { type: Operation, op: Concat }, { type: "Lookup" }, '
        '{ "type": Aggregate, "op": "Eq" }, { type: Input, op: Sum } ] }'
    )
    assert kinds["Operation"] is KNOWN_TYPE
    assert kinds['"Lookup"'] is KNOWN_TYPE
    assert kinds["Concat"] is KNOWN_OP
    for unknown in ("Aggregate", '"Eq"', "Input", "Sum"):
        assert kinds[unknown] is UNKNOWN_NAME, unknown
    assert KNOWN_TYPE != KNOWN_OP != UNKNOWN_NAME != Name


def test_every_catalog_name_is_known() -> None:
    for node_type in NODE_TYPES:
        assert kinds_of(f"Graph {{ nodes: [{{ type: {node_type} }}] }}")[node_type] is KNOWN_TYPE
    for op in OPS:
        assert kinds_of(f"Graph {{ nodes: [{{ type: Operation, op: {op} }}] }}")[op] is KNOWN_OP


def test_type_and_op_mean_something_only_in_a_node() -> None:
    kinds = kinds_of('Graph { metadata: { type: Aggregate, op: Hash }, outputs: ["x"] }')
    assert kinds["Aggregate"] is Name
    assert kinds["Hash"] is Name
    assert kinds["type"] is Name.Attribute


def test_a_name_that_only_starts_like_a_known_one_is_unknown() -> None:
    kinds = kinds_of("Graph { nodes: [{ type: Constants, op: Hash-ish, x: true_ish }] }")
    assert kinds["Constants"] is UNKNOWN_NAME
    assert kinds["Hash-ish"] is UNKNOWN_NAME
    assert kinds["true_ish"] is Name


def test_scalars_keys_and_structs() -> None:
    text = (
        'Graph { "quoted key": -1.5e-3, bare: 42, s: "a\\"b\\u00e9", t: true, n: null, '
        "p: [HaltingProof { max_steps: 3 }], v: some-name }"
    )
    assert [(kind, value) for kind, value in tokens(text) if value.strip()] == [
        (Name.Class, "Graph"),
        (Token.Punctuation, "{"),
        (Name.Attribute, '"quoted key"'),
        (Token.Punctuation, ":"),
        (Token.Literal.Number.Float, "-1.5e-3"),
        (Token.Punctuation, ","),
        (Name.Attribute, "bare"),
        (Token.Punctuation, ":"),
        (Token.Literal.Number.Integer, "42"),
        (Token.Punctuation, ","),
        (Name.Attribute, "s"),
        (Token.Punctuation, ":"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "a"),
        (Token.Literal.String.Escape, '\\"'),
        (Token.Literal.String.Double, "b"),
        (Token.Literal.String.Escape, "\\u00e9"),
        (Token.Literal.String.Double, '"'),
        (Token.Punctuation, ","),
        (Name.Attribute, "t"),
        (Token.Punctuation, ":"),
        (Keyword.Constant, "true"),
        (Token.Punctuation, ","),
        (Name.Attribute, "n"),
        (Token.Punctuation, ":"),
        (Keyword.Constant, "null"),
        (Token.Punctuation, ","),
        (Name.Attribute, "p"),
        (Token.Punctuation, ":"),
        (Token.Punctuation, "["),
        (Name.Class, "HaltingProof"),
        (Token.Punctuation, "{"),
        (Name.Attribute, "max_steps"),
        (Token.Punctuation, ":"),
        (Token.Literal.Number.Integer, "3"),
        (Token.Punctuation, "}"),
        (Token.Punctuation, "]"),
        (Token.Punctuation, ","),
        (Name.Attribute, "v"),
        (Token.Punctuation, ":"),
        (Name, "some-name"),
        (Token.Punctuation, "}"),
    ]


def test_hash_inside_a_string_is_not_a_comment() -> None:
    kinds = kinds_of('Graph { a: "x # y", b: 1 } # real')
    assert kinds['"x # y"'] in Token.Literal.String
    assert kinds["# real"] is Token.Comment.Single


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Graph { a: 1; b: 2 }", ";"),
        ('Graph { a: "bad \\q escape" }', "\\"),
        ("Graph { a: 1. }", "."),
        ('Graph { a: "open\n, b: 2 }', "\n"),
    ],
    ids=["stray character", "invalid escape", "half a float", "unterminated string"],
)
def test_error_tokens_only_where_the_text_is_invalid(text: str, bad: str) -> None:
    with pytest.raises(ZeroSyntaxError):
        parse(text)
    assert not lexically_valid(text)
    found = [(kind, value) for kind, value in tokens(text) if kind in Error]
    assert found == [(Error, bad)]


def test_an_unterminated_string_does_not_swallow_the_next_line() -> None:
    kinds = kinds_of('Graph { nodes: [{ id: "open\n  type: Constant }] }')
    assert kinds["type"] is Name.Attribute
    assert kinds["Constant"] is KNOWN_TYPE


def test_text_that_is_not_a_graph_has_no_error_tokens() -> None:
    text = "Just some text; with {odd} \\ punctuation @ 'quotes' and \"unclosed\n# a note\n"
    for sample in (text, "0M:1.0\nagent\n1 likes1\n", ""):
        found = tokens(sample)
        assert [value for kind, value in found if kind in Error] == []
        assert "".join(value for _, value in found) == sample or sample == ""
    assert kinds_of(text)["# a note"] is Token.Comment.Single


@settings(max_examples=scaled(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commented_graphs())
def test_printed_graphs_lex_without_errors(graph: Graph) -> None:
    text = print_graph(graph)
    found = tokens(text)
    assert [value for kind, value in found if kind in Error] == []
    assert "".join(value for _, value in found) == text


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runnable_graphs())
def test_every_node_type_and_op_of_a_valid_graph_is_known(graph: Graph) -> None:
    marked = {value for kind, value in tokens(print_graph(graph)) if kind in (KNOWN_TYPE, KNOWN_OP)}
    for node in graph.nodes:
        assert node.type in marked
        if node.op is not None:
            assert node.op in marked
    assert not [value for kind, value in tokens(print_graph(graph)) if kind is UNKNOWN_NAME]


def test_analyse_text_recognises_a_graph() -> None:
    assert ZeroLexer.analyse_text("# hi\nGraph {") > 0
    assert ZeroLexer.analyse_text("def f(): pass") == 0


def test_found_through_the_entry_point() -> None:
    from pygments.lexers import find_lexer_class_for_filename, get_lexer_by_name, get_lexer_for_filename

    assert isinstance(get_lexer_by_name("zero"), ZeroLexer)
    assert isinstance(get_lexer_by_name("0lang"), ZeroLexer)
    assert isinstance(get_lexer_for_filename("graph.0"), ZeroLexer)
    assert find_lexer_class_for_filename("graph.0") is ZeroLexer
    for alias in ("zeroc", "0c"):
        assert isinstance(get_lexer_by_name(alias), ZeroCompactLexer)
    assert isinstance(get_lexer_for_filename("memory.0c"), ZeroCompactLexer)
    assert find_lexer_class_for_filename("memory.0c") is ZeroCompactLexer


def pygmentize() -> Path:
    candidate = Path(sys.executable).parent / "pygmentize"
    if not candidate.exists():
        pytest.skip(f"pygmentize is not installed beside {sys.executable}")
    return candidate


@pytest.mark.slow
def test_pygmentize_command_highlights_hello() -> None:
    result = subprocess.run(
        [str(pygmentize()), "-l", "zero", "-f", "html", str(ROOT / "examples" / "hello.0")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert '<span class="kt">Operation</span>' in result.stdout
    assert '<span class="nb">Concat</span>' in result.stdout
    assert 'class="err"' not in result.stdout


@pytest.mark.slow
def test_pygmentize_guesses_from_the_file_name() -> None:
    result = subprocess.run(
        [str(pygmentize()), "-N", "graph.0"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.stdout.strip() == "zero"
    result = subprocess.run(
        [str(pygmentize()), "-N", "memory.0c"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.stdout.strip() == "zeroc"


# ---- .0c: the compact memory format ---------------------------------------------------------

SAMPLES = Path(__file__).resolve().parent / "samples"


def compact_kinds(text: str) -> list[tuple[_TokenType, str]]:
    """The non-blank tokens of a `.0c` text."""
    return [(kind, value) for kind, value in compact_tokens(text) if value.strip()]


def test_every_level_has_a_sample() -> None:
    headers = {path.name: path.read_text(encoding="utf-8") for path in SAMPLES.glob("*.0c")}
    assert "\n0M:1.0\n" in headers["memory_l2.0c"]
    assert headers["memory_l1.0c"].startswith("0M:1.0 L1 ")
    assert headers["memory_l0.0c"].startswith("0M:1.0 L0 ")
    assert headers["memory_delta.0c"].startswith("0M:1.0 delta base=")


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.0c")), ids=lambda path: path.name)
def test_compact_samples_are_valid_and_lex_without_errors(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    if "L0" not in text.split("\n", 1)[0] and "L1" not in text.split("\n", 1)[0]:
        compact_parse(text)  # the L2 samples (and the delta) are documents the parser accepts
    found = compact_tokens(text)
    assert [value for kind, value in found if kind in Error] == []
    assert "".join(value for _, value in found) == text


def test_compact_header_lines() -> None:
    assert compact_kinds("0M:1.0\n") == [
        (Keyword.Namespace, "0M"),
        (Token.Punctuation, ":"),
        (Token.Literal.Number.Float, "1.0"),
    ]
    assert compact_kinds("0M:1.0 L0 concepts=8 relations=9\na:8 c\nb:c\n")[3:] == [
        (Keyword, "L0"),
        (Name.Attribute, "concepts"),
        (Token.Operator, "="),
        (Token.Literal.Number.Integer, "8"),
        (Name.Attribute, "relations"),
        (Token.Operator, "="),
        (Token.Literal.Number.Integer, "9"),
        (SHORT_HASH, "a"),
        (Token.Punctuation, ":"),
        (SHORT_HASH, "8"),
        (SHORT_HASH, "c"),
        (SHORT_HASH, "b"),
        (Token.Punctuation, ":"),
        (SHORT_HASH, "c"),
    ]
    base = "c97467cd9ebe7ebf1764d734203b50f5244c4e4d8b8e930161a6f619532e542c"
    assert compact_kinds(f"0M:1.0 delta base={base}\n")[3:] == [
        (Keyword, "delta"),
        (Name.Attribute, "base"),
        (Token.Operator, "="),
        (SHORT_HASH, base),
    ]


def test_compact_concept_lines() -> None:
    text = '0M:1.0\n# note\n"say \\"hi\\""|LTM|"^odd"|=30|@2026-01-01T00:00:00Z|^"2026 later"\nagent\n'
    assert compact_kinds(text)[3:] == [
        (Token.Comment.Single, "# note"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "say "),
        (Token.Literal.String.Escape, '\\"'),
        (Token.Literal.String.Double, "hi"),
        (Token.Literal.String.Escape, '\\"'),
        (Token.Literal.String.Double, '"'),
        (Token.Punctuation, "|"),
        (ALIAS, "LTM"),
        (Token.Punctuation, "|"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "^odd"),
        (Token.Literal.String.Double, '"'),
        (Token.Punctuation, "|"),
        (Token.Operator, "="),
        (Token.Literal.Number.Integer, "30"),
        (Token.Punctuation, "|"),
        (Token.Operator, "@"),
        (TIME, "2026-01-01T00:00:00Z"),
        (Token.Punctuation, "|"),
        (Token.Operator, "^"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "2026 later"),
        (Token.Literal.String.Double, '"'),
        (CONCEPT_LABEL, "agent"),
    ]


def test_compact_context_time_and_relation_lines() -> None:
    text = (
        "0M:1.0\na\nb\n"
        'X:2026-02-18T00:00:00Z "chat log" design a=bot s=r-1 m={"k\\u00e9":"v"} c=-\n'
        "@2026-02-20T10:00:00.000Z\n"
        '1 includes2 85; "v2"1 .955; needs2\n'
    )
    assert compact_kinds(text)[5:] == [
        (Keyword.Declaration, "X"),
        (Token.Punctuation, ":"),
        (TIME, "2026-02-18T00:00:00Z"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "chat log"),
        (Token.Literal.String.Double, '"'),
        (SCOPE, "design"),
        (Name.Attribute, "a"),
        (Token.Operator, "="),
        (FIELD_VALUE, "bot"),
        (Name.Attribute, "s"),
        (Token.Operator, "="),
        (FIELD_VALUE, "r-1"),
        (Name.Attribute, "m"),
        (Token.Operator, "="),
        (Token.Punctuation, "{"),
        (Name.Attribute, '"'),
        (Name.Attribute, "k"),
        (Token.Literal.String.Escape, "\\u00e9"),
        (Name.Attribute, '"'),
        (Token.Punctuation, ":"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "v"),
        (Token.Literal.String.Double, '"'),
        (Token.Punctuation, "}"),
        (Name.Attribute, "c"),
        (Token.Operator, "="),
        (Keyword.Constant, "-"),
        (Keyword, "@"),
        (TIME, "2026-02-20T10:00:00.000Z"),
        (CONCEPT_ID, "1"),
        (PREDICATE, "includes"),
        (CONCEPT_ID, "2"),
        (Token.Literal.Number.Integer, "85"),
        (Token.Punctuation, ";"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "v2"),
        (Token.Literal.String.Double, '"'),
        (CONCEPT_ID, "1"),
        (Token.Literal.Number.Float, ".955"),
        (Token.Punctuation, ";"),
        (PREDICATE, "needs"),
        (CONCEPT_ID, "2"),
    ]
    assert compact_kinds("0M:1.0\nX:t src scope\n")[5:] == [(TIME, "t"), (SOURCE, "src"), (SCOPE, "scope")]


def test_compact_declaration_lines() -> None:
    text = '0M:1.0\n!single-valued works_at @2026-02-01T00:00:00.000Z\n!-single-valued "a\\"b" @"t\\u005a"\n'
    assert compact_kinds(text)[3:] == [
        (Keyword, "!"),
        (SETTING, "single-valued"),
        (PREDICATE, "works_at"),
        (Keyword, "@"),
        (TIME, "2026-02-01T00:00:00.000Z"),
        (Keyword, "!-"),
        (SETTING, "single-valued"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "a"),
        (Token.Literal.String.Escape, '\\"'),
        (Token.Literal.String.Double, "b"),
        (Token.Literal.String.Double, '"'),
        (Keyword, "@"),
        (Token.Literal.String.Double, '"'),
        (Token.Literal.String.Double, "t"),
        (Token.Literal.String.Escape, "\\u005a"),
        (Token.Literal.String.Double, '"'),
    ]


# Lines starting with `!`: a declaration only when the grammar's DECLARATION terminal is the whole line.
BANG_LINES = [
    "!single-valued x @t",
    "!-single-valued x @t",
    '!single-valued "a b @c" @t',
    '!single-valued a"b @t',
    '!single-valued "" @""',
    '!single-valued "a\\\\" @"c\\"d"',
    "!single-valued x @@t",
    "!a-b-c9 x @t|y",
    "!important",
    "!-",
    "!single-valued x",
    "!single-valued x @t ",
    "!single-valued x @t and more",
    '!single-valued x @"t" more',
    '!single-valued "open @t',
    '!single-valued "x"y @t',
    "!single-valued x @",
    "!single-valued x\t@t",
    "!single-valued  x @t",
    "!Single-valued x @t",
    "!1abc x @t",
    "!a- x @t",
    "!a--b x @t",
    "!- x @t",
]


@functools.cache
def declaration_pattern() -> re.Pattern[str]:
    """The grammar's DECLARATION terminal (zerolang/syntax/grammars/zeroc.lark), as lark compiles it."""
    from lark import Lark

    terminal = Lark.open(str(grammar_path("zeroc")), parser="lalr").get_terminal("DECLARATION")
    return re.compile(terminal.pattern.to_regexp())


def test_bang_lines_hold_declarations_and_look_alikes() -> None:
    declarations = [line for line in BANG_LINES if declaration_pattern().match(line + "\n")]
    assert 8 <= len(declarations) <= len(BANG_LINES) - 8


@pytest.mark.parametrize("line", BANG_LINES)
def test_a_bang_line_is_a_declaration_exactly_when_the_grammar_says_so(line: str) -> None:
    found = compact_kinds(f"0M:1.0\n{line}\n")[3:]
    if declaration_pattern().match(line + "\n"):
        assert found[:2] == [
            (Keyword, "!-" if line.startswith("!-") else "!"),
            (SETTING, line.split()[0][1:].lstrip("-")),
        ]
        assert (Keyword, "@") in found
        assert not [value for kind, value in found if kind in Error]
    else:
        assert found == [(CONCEPT_LABEL, line)]


def test_labels_that_look_like_other_lines_are_concepts() -> None:
    kinds = dict((value, kind) for kind, value in compact_kinds("0M:1.0\n12\nx:y\n0Mx\n1 a2\n"))
    assert kinds["12"] is CONCEPT_LABEL
    assert kinds["x:y"] is CONCEPT_LABEL
    assert kinds["0Mx"] is CONCEPT_LABEL
    assert kinds["a"] is PREDICATE


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ('0M:1.0\n"bad \\q escape"\n', "\\"),
        ("0M:1.0\na\n1 uses1 likes1\n", " "),
        ("0M:1.0\nX:t s c z=1\n", "z=1"),
    ],
    ids=["invalid escape", "two relations without `; `", "an unknown context field"],
)
def test_compact_error_tokens_where_the_parser_rejects_the_text(text: str, bad: str) -> None:
    with pytest.raises(ZeroError):
        compact_parse(text)
    errors = [value for kind, value in compact_tokens(text) if kind in Error]
    assert errors and errors[0] == bad


def lexes_cleanly(text: str) -> None:
    found = compact_tokens(text)
    assert [(kind, value) for kind, value in found if kind in Error] == []
    assert "".join(value for _, value in found) == text.replace("\r\n", "\n")  # Pygments reads CRLF as LF


@settings(max_examples=scaled(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_serialized_records_lex_without_errors(record: MemoryRecord) -> None:
    text = compact_serialize(record)
    lexes_cleanly(text)
    lexes_cleanly(text.replace("\n", "\r\n"))
    for level in (Level.L0, Level.L1):
        lexes_cleanly(render_level(record, level))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_serialized_stores_and_deltas_lex_without_errors(history: list[MemoryRecord]) -> None:
    with open_store() as store:
        for record in history:
            store.insert_record(record)
        snapshot = read_store(store)
    text = compact_serialize(snapshot)
    lexes_cleanly(text)
    lexes_cleanly(compact_serialize(snapshot, header=f"0M:1.0 delta base={'ab' * 32}"))
    ids = [value for kind, value in compact_tokens(text) if kind is CONCEPT_ID]
    assert len(ids) >= len(snapshot.relations)  # every object (and each line's subject) is an id
    assert all(1 <= int(value) <= len(snapshot.concepts) for value in ids)


def test_analyse_text_recognises_a_compact_document() -> None:
    assert ZeroCompactLexer.analyse_text("# exported\n0M:1.0\nagent\n") > 0
    assert ZeroCompactLexer.analyse_text("Graph { }") == 0
    assert ZeroLexer.analyse_text("0M:1.0\n") == 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(f"usage: python {sys.argv[0]} --update   (rewrites {GOLDEN.relative_to(ROOT)}/*.tokens)")
    update_all()
    print(f"wrote {len(SOURCES)} golden files to {GOLDEN.relative_to(ROOT)}")


def test_the_lexers_answer_to_names_apart_from_the_other_dot_0_language() -> None:
    from pygments.lexers import get_lexer_by_name

    assert get_lexer_by_name("zerolang").name == "Zero"
    assert get_lexer_by_name("zerolang-compact").name == "Zero compact memory"

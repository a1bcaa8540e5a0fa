"""The Pygments lexer: golden token streams, no `Error` on valid text, and discovery through the entry point.

Golden files are `golden/<stem>.tokens`, one `TokenType<TAB>repr(value)` per
token. After a deliberate change to the lexer, regenerate them and review the diff:

    python tests/highlight/test_highlight.py --update
    (or: ZERO_UPDATE_GOLDEN=1 python -m pytest tests/highlight)

`Error` tokens: none on any file under examples/ or schema/; under tests/,
exactly in the files the grammar's own lexer rejects (a fixture may hold
invalid text on purpose: tests/editors/samples/lexical_errors.0). A file that lexes but does not parse (a missing comma, two
graphs in one file) highlights without `Error`: structure is the parser's job.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from pygments.token import Error, Keyword, Name, Token, _TokenType

ROOT = Path(__file__).resolve().parent.parent.parent
if __name__ == "__main__":  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from tests.editors.common import SOURCES as EDITOR_SOURCES  # noqa: E402
from tests.strategies import commented_graphs, runnable_graphs  # noqa: E402
from zerolang.ast import Graph  # noqa: E402
from zerolang.catalog import NODE_TYPES, OPS  # noqa: E402
from zerolang.errors import ZeroSyntaxError  # noqa: E402
from zerolang.grammar import grammar_path  # noqa: E402
from zerolang.highlight import KNOWN_OP, KNOWN_TYPE, UNKNOWN_NAME, ZeroLexer  # noqa: E402
from zerolang.parser import parse  # noqa: E402
from zerolang.printer import print_graph  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SOURCES = EDITOR_SOURCES  # every example, the schema, tour.0 and the .0c / invalid samples
UPDATE = os.environ.get("ZERO_UPDATE_GOLDEN") == "1"


def tokens(text: str) -> list[tuple[_TokenType, str]]:
    return list(ZeroLexer().get_tokens(text))


def render(text: str) -> str:
    return "".join(f"{kind}\t{value!r}\n" for kind, value in tokens(text))


def golden_path(source: Path) -> Path:
    return GOLDEN / f"{source.stem}.tokens"


def update_all() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for source in SOURCES:
        golden_path(source).write_text(render(source.read_text(encoding="utf-8")), encoding="utf-8")


def test_golden_names_are_unique() -> None:
    assert len({source.stem for source in SOURCES}) == len(SOURCES)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_golden_tokens(source: Path) -> None:
    actual = render(source.read_text(encoding="utf-8"))
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


COMPACT = """0M:1.0
# Concepts  (C:short_hash:label)
C:a1b2c3d4:agent
R:a1b2c3d4>needs>e5f6a7b8:0.98   # a relation
X:f3a4b5c6:t=2026-02-18T00:00:00Z,src=user_prompt,scope=design
"""


def test_compact_format_and_plain_text_have_no_error_tokens() -> None:
    for text in (COMPACT, "Just some text; with {odd} \\ punctuation @ 'quotes' and \"unclosed\n", ""):
        assert [value for kind, value in tokens(text) if kind in Error] == []
    kinds = kinds_of(COMPACT)
    assert kinds["0M"] is Keyword
    assert kinds["# a relation"] is Token.Comment.Single
    assert kinds["0.98"] is Token.Literal.Number


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    assert find_lexer_class_for_filename("memory.0c") is ZeroLexer


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


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(f"usage: python {sys.argv[0]} --update   (rewrites {GOLDEN.relative_to(ROOT)}/*.tokens)")
    update_all()
    print(f"wrote {len(SOURCES)} golden files to {GOLDEN.relative_to(ROOT)}")

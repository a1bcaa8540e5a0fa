"""Grammar-aware hostile text: fragments of real `.0`, `.0c` and query syntax mixed with what breaks
tools (lone surrogates, control characters, deep nesting, huge tokens, cut and spliced documents).

Shared by the hypothesis tests in this folder and the atheris harness in `fuzz/`.
"""

from __future__ import annotations

from hypothesis import strategies as st

# Escapes and characters that have broken text tools: lone and paired surrogates, NUL and other
# controls, a BOM, line and paragraph separators, a right-to-left override, CR alone.
HOSTILE_ESCAPES = [
    "\\ud800",
    "\\udfff",
    "\\ud83d\\ude00",
    "\\ud83d",
    "\\u0000",
    "\\u001b",
    "\\u2028",
    "\\ufeff",
    "\\\\",
    '\\"',
    "\\x41",
    "\\u12",
    "\\",
]
HOSTILE_CHARACTERS = [
    "\x00",
    "\x1b",
    "\r",
    "\x0b",
    "\x0c",
    "\ufeff",
    "\u2028",
    "\u202e",
    "\x7f",
    "é",
    "😀",
    "\t",
]


def _huge(unit: str) -> st.SearchStrategy[str]:
    return st.integers(1_000, 200_000).map(lambda count: unit * count)


HUGE_TOKENS = st.one_of(
    _huge("a").map(lambda body: f'"{body}"'),
    _huge("9"),
    _huge("x"),
    _huge("#").map(lambda body: body + "\n"),
    st.just("1e999999"),
    st.just("-99999999999999999999999999"),
    st.just("0.000000000000000000000000000000000001e-400"),
)


def _nested(open_: str, close: str) -> st.SearchStrategy[str]:
    return st.integers(50, 3_000).map(lambda depth: open_ * depth + "1" + close * depth)


DEEP = st.one_of(
    _nested("[", "]"),
    _nested("{ a: ", " }"),
    _nested("S { a: ", " }"),
    _nested('{"a":', "}"),
    st.integers(50, 3_000).map(lambda depth: "[" * depth),  # never closed
)

ZERO_FRAGMENTS = [
    "Graph {",
    "}",
    "[",
    "]",
    "{",
    ",",
    ":",
    'name: "g",',
    "nodes: [",
    "outputs: [",
    '{ id: "a", type: Constant, value: ',
    '{ id: "b", type: Operation, op: Concat, inputs: ["a", "a"] }',
    '{ id: "c", type: Operation, op: Eq, inputs: ["a"] }',
    '{ id: "r", type: Route, conditions: [{ input: "a", target: "x" }] }',
    'type: External, uri: "input://x"',
    "HaltingProof { max_steps: 3 }",
    "# a comment\n",
    "\n",
    "true",
    "null",
    "-0",
    "1.5e3",
    '"text"',
    "a.b",
]
COMPACT_FRAGMENTS = [
    "0M:1.0",
    "0M:1.1",
    "0M:1.0 L1 concepts=1 facts=1",
    "0M:1.0 L0 concepts=1 relations=1",
    "0M:1.0 delta base=" + "0" * 64,
    "0M:end lines=3 sha256=0123456789abcdef",
    "agent|Agent",
    "ltm|LTM|=95|@2026-01-01T00:00:00Z|^2026-01-02T00:00:00Z",
    '"quoted|label"',
    "Graph { not a graph }",
    "X:2026-02-18T00:00:00Z user_prompt design",
    'X:2026-02-18T00:00:00Z s t a=agent s=session m={"k":"v"} c=-',
    "@2026-02-20T10:00:00.000Z",
    "1 needs2 95",
    "1 needs2 95; uses1 50",
    "2 is_part_of99 1e-9",
    "# comment",
    "",
]
QUERY_FRAGMENTS = [
    "recall",
    "match",
    "(?a ?p ?b)",
    "(?b needs ltm)",
    ",",
    "agent",
    '"quoted label"',
    "depth 2",
    "limit 10",
    "where confidence > 0.5",
    "and",
    "where predicate in (needs, uses)",
    "source = tool_output",
    "since 7d",
    "between 2026-02-01 and 2026-02-28",
    "from semantic, episodic",
    "rank by activation",
    "order by ?a desc",
    "as L1",
]


def _escaped_string() -> st.SearchStrategy[str]:
    pieces = st.lists(st.one_of(st.sampled_from(HOSTILE_ESCAPES), st.text(max_size=5)), max_size=6)
    return pieces.map(lambda parts: '"' + "".join(parts) + '"')


def _mixed(fragments: list[str]) -> st.SearchStrategy[str]:
    piece = st.one_of(
        st.sampled_from(fragments),
        st.sampled_from(fragments),
        _escaped_string(),
        st.sampled_from(HOSTILE_CHARACTERS),
        st.text(max_size=8),
    )
    separator = st.sampled_from([" ", "\n", "", ", ", "\r\n"])
    return st.lists(st.tuples(piece, separator), max_size=40).map(
        lambda items: "".join(text + sep for text, sep in items)
    )


@st.composite
def _mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """A document cut, spliced or with a hostile piece inserted at a random place."""
    text = draw(base)
    if not text:
        return text
    position = draw(st.integers(0, len(text)))
    action = draw(st.sampled_from(["cut", "insert", "delete", "duplicate", "none"]))
    if action == "cut":
        return text[:position]
    if action == "insert":
        inserted = draw(
            st.one_of(st.sampled_from(HOSTILE_CHARACTERS), _escaped_string(), st.text(max_size=4))
        )
        return text[:position] + inserted + text[position:]
    if action == "delete":
        return text[:position] + text[position + draw(st.integers(1, 20)) :]
    if action == "duplicate":
        return text[:position] + text[position:] + text[position:]
    return text


def _with_extremes(base: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Rarely, a huge token or a deep nest put inside an otherwise plausible document."""
    return st.one_of(
        base,
        st.tuples(base, st.one_of(HUGE_TOKENS, DEEP), base).map(lambda parts: "".join(parts)),
    )


VALID_GRAPH = (
    'Graph {\n    name: "g",\n    nodes: [\n        { id: "a", type: Constant, value: "x" },\n'
    '        { id: "b", type: Operation, op: ToUpper, inputs: ["a"] },\n    ],\n    outputs: ["b"],\n}\n'
)
VALID_COMPACT = (
    "0M:1.0\nlong-term-memory|LTM\nagent|Agent\nX:2026-02-18T00:00:00Z user_prompt design\n"
    "@2026-02-20T10:00:00.000Z\n2 needs1 75\n"
)

# A well-formed graph whose value, op and id slots hold hostile text: gets past the parser to the
# validator, formatter, linter and interpreter far more often than mixed fragments do.
GRAPH_TEMPLATE = (
    'Graph {{\n    name: {name},\n    nodes: [\n        {{ id: "a", type: Constant, value: {value} }},\n'
    '        {{ id: {id}, type: Operation, op: {op}, inputs: ["a", "a"] }},\n'
    '        {{ id: "c", type: Operation, op: ArrayPush, inputs: ["a", {id}] }},\n'
    '    ],\n    outputs: [{id}, "c"],\n}}\n'
)
OPS_TO_TRY = [
    "Concat",
    "ArrayPush",
    "Split",
    "Hash",
    "Sign",
    "Verify",
    "Length",
    "Eq",
    "Equals",
    "If",
    "MergeMap",
]
hostile_values = st.one_of(
    _escaped_string(),
    HUGE_TOKENS,
    DEEP,
    st.sampled_from(["1e999999", "-0", "null", "[]", "{}", "S { a: 1 }", "[1, [2, [3]]]", "x.y", '"a\tb"']),
    st.integers(-(2**70), 2**70).map(str),
)
hostile_graphs = st.builds(
    lambda value, op, name, node_id: GRAPH_TEMPLATE.format(value=value, op=op, name=name, id=node_id),
    hostile_values,
    st.sampled_from(OPS_TO_TRY),
    st.one_of(_escaped_string(), st.just('"g"')),
    st.one_of(_escaped_string(), st.just('"b"')),
)
COMPACT_TEMPLATE = (
    "{header}\n{label}|LTM\nagent|Agent\nX:2026-02-18T00:00:00Z {word} design\n"
    "@2026-02-20T10:00:00.000Z\n2 {predicate}1 {confidence}\n"
)
hostile_compact = st.builds(
    lambda header, label, word, predicate, confidence: COMPACT_TEMPLATE.format(
        header=header, label=label, word=word, predicate=predicate, confidence=confidence
    ),
    st.sampled_from(["0M:1.0", "0M:1.1", "0M:2.0", "0M:1.0 delta base=00"]),
    st.one_of(_escaped_string(), st.text(min_size=1, max_size=8), HUGE_TOKENS),
    st.one_of(_escaped_string(), st.sampled_from(["user_prompt", "-", "a=b"])),
    st.one_of(_escaped_string(), st.sampled_from(["needs", "is_part_of", "v2"])),
    st.sampled_from(["75", "7", "100", "101", "1e-9", ".5", "-1", "nan", "1e999"]),
)

zero_sources = _with_extremes(
    st.one_of(
        hostile_graphs,
        _mutated(hostile_graphs),
        _mixed(ZERO_FRAGMENTS),
        _mutated(st.just(VALID_GRAPH)),
        _mutated(_mixed(ZERO_FRAGMENTS)),
    )
)
compact_sources = _with_extremes(
    st.one_of(
        hostile_compact,
        _mutated(hostile_compact),
        _mixed(COMPACT_FRAGMENTS).map(lambda body: "0M:1.0\n" + body),
        _mutated(st.just(VALID_COMPACT)),
        _mixed(COMPACT_FRAGMENTS),
    )
)
query_sources = _with_extremes(st.one_of(_mixed(QUERY_FRAGMENTS), _mutated(_mixed(QUERY_FRAGMENTS))))
json_sources = _with_extremes(
    st.one_of(
        st.recursive(
            st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _escaped_string()),
            lambda children: st.one_of(
                st.lists(children, max_size=4).map(lambda items: "[" + ",".join(map(str, items)) + "]"),
                st.dictionaries(_escaped_string(), children, max_size=4).map(
                    lambda mapping: "{" + ",".join(f"{k}:{v}" for k, v in mapping.items()) + "}"
                ),
            ),
            max_leaves=20,
        ).map(str),
        _mutated(
            st.just('{"utterance": "x", "tuples": [{"subject": "a", "predicate": "b", "object": "c"}]}')
        ),
    )
)


# ---- grammar-aware generators (issue 23, point 5) ------------------------------------------------
# Documents built line by line from the `.0c` and query grammars (grammars/zeroc.lark, query.lark),
# with every number slot able to hold what once crashed a reader: hundreds or thousands of digits,
# exponents past every float, leading zeros.

NUMBERS = st.one_of(
    st.integers(0, 120).map(str),
    st.sampled_from(["0", "00095", ".5", "1e-9", "1e999", "1.", "nan", "-1"]),
    st.integers(18, 5_000).map(lambda digits: "9" * digits),
    st.integers(1, 400).map(lambda digits: "." + "9" * digits + "e" + "9" * digits),
)
_WORDS = st.one_of(
    st.sampled_from(["agent", "long-term-memory", "needs", "a b", "0M:x", "#x", "!x", "|", '"q"', "é"]),
    st.text(max_size=6),
)
_LABEL = st.one_of(_WORDS.filter(lambda w: w and "\n" not in w and "\r" not in w), _escaped_string())


@st.composite
def _compact_line(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["concept", "context", "time", "relations", "declaration", "comment", "end"]))
    if kind == "concept":
        items = draw(st.lists(_LABEL, min_size=1, max_size=3))
        extra = draw(st.sampled_from(["", "|=" + draw(NUMBERS), "|@2026-01-01T00:00:00Z", "|^x"]))
        return "|".join(items) + extra
    if kind == "context":
        fields = draw(
            st.sampled_from(["", " a=agent", " s=session", ' m={"k":"v","k":"w"}', " m={}", " c=-"])
        )
        return f"X:{draw(_LABEL)} {draw(_LABEL)} {draw(_LABEL)}{fields}"
    if kind == "time":
        return "@" + draw(st.sampled_from(["2026-02-20T10:00:00.000Z", "x", '"2026"']))
    if kind == "relations":
        count = draw(st.integers(1, 3))
        predicates = st.sampled_from(["needs", "uses", "is_part_of", '"q p"'])
        parts = [
            draw(predicates) + draw(NUMBERS) + draw(st.sampled_from(["", " " + draw(NUMBERS)]))
            for _ in range(count)
        ]
        return f"{draw(NUMBERS)} " + "; ".join(parts)
    if kind == "declaration":
        return f"!{draw(st.sampled_from(['', '-']))}single-valued {draw(_LABEL)} @2026-01-01T00:00:00Z"
    if kind == "comment":
        return "# " + draw(st.text(max_size=10))
    return f"0M:end lines={draw(NUMBERS)} sha256=0123456789abcdef"


grammar_compact = st.builds(
    lambda header, lines, ending: header + "\n" + "\n".join(lines) + ending,
    st.sampled_from(
        ["0M:1.0", "0M:1.1", "0M:1." + "1" * 4400, "0M:" + "9" * 4400 + ".0", "0M:1.0 delta base=00"]
    ),
    st.lists(_compact_line(), max_size=12),
    st.sampled_from(["", "\n", "\r\n", "\n\n"]),
)


@st.composite
def _query_clause(draw: st.DrawFn) -> str:
    return draw(
        st.sampled_from(
            [
                f"depth {draw(NUMBERS)}",
                f"limit {draw(NUMBERS)}",
                f"where confidence {draw(st.sampled_from(['>', '>=', '<', '=', '!=']))} {draw(NUMBERS)}",
                f"where predicate in ({draw(_LABEL)}, {draw(_LABEL)})",
                f"since {draw(NUMBERS)}{draw(st.sampled_from(['s', 'm', 'h', 'd', 'w']))}",
                f"between 2026-02-{draw(st.integers(0, 39)):02d} and 2026-02-28",
                f"from {draw(st.sampled_from(['semantic', 'episodic, working', 'all']))}",
                "rank by activation",
                f"order by {draw(st.sampled_from(['?a', 'confidence', 'label']))} desc",
                f"as of {draw(st.sampled_from(['2026-01-01', '9999-99-99']))}",
                "as L1",
            ]
        )
    )


_TERM = st.one_of(
    st.sampled_from(["?a", "?b", "?c"]), _LABEL.map(lambda w: w if w.isidentifier() else f'"{w}"')
)
grammar_queries = st.one_of(
    st.builds(
        lambda seed, clauses: f"recall {seed} " + " ".join(clauses),
        _TERM,
        st.lists(_query_clause(), max_size=5),
    ),
    st.builds(
        lambda patterns, clauses: (
            "match " + ", ".join(f"({s} {p} {o})" for s, p, o in patterns) + " " + " ".join(clauses)
        ),
        st.lists(st.tuples(_TERM, _TERM, _TERM), min_size=1, max_size=3),
        st.lists(_query_clause(), max_size=4),
    ),
)

"""Hypothesis strategies for `.0` syntax trees: arbitrary literals, comments, and valid runnable graphs."""

from __future__ import annotations

import string

from hypothesis import strategies as st

from zerolang.runtime.builtins import OPERATIONS
from zerolang.runtime.catalog import OPS
from zerolang.syntax.ast import (
    Array,
    Bool,
    Comment,
    Entry,
    Float,
    Graph,
    Int,
    Map,
    Node,
    Null,
    String,
    Struct,
    Value,
)

IDENTIFIERS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
    lambda name: name not in {"true", "false", "null"}
)
COMMENT_TEXT = st.text(
    alphabet=st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=30
).map(lambda text: (" " + text).rstrip())
COMMENTS = st.lists(COMMENT_TEXT.map(Comment), max_size=2)
MAYBE_COMMENT = st.none() | COMMENT_TEXT.map(Comment)

SCALARS: st.SearchStrategy[Value] = st.one_of(
    st.text(max_size=20).map(String),
    st.integers(min_value=-(2**63), max_value=2**63 - 1).map(Int),
    st.floats(allow_nan=False, allow_infinity=False).map(Float),
    st.booleans().map(Bool),
    st.builds(Null),
)


def _decorate(element: st.SearchStrategy[Value]) -> st.SearchStrategy[Value]:
    """Attach leading and trailing comments to an array item."""

    def attach(value: Value, leading: list[Comment], trailing: Comment | None) -> Value:
        value.leading, value.trailing = leading, trailing
        return value

    return st.builds(attach, element, COMMENTS, MAYBE_COMMENT)


def _entries(values: st.SearchStrategy[Value]) -> st.SearchStrategy[list[Entry]]:
    entry = st.builds(
        lambda key, value, leading, trailing: Entry(key=key, value=value, leading=leading, trailing=trailing),
        st.text(max_size=8) | IDENTIFIERS,
        values,
        COMMENTS,
        MAYBE_COMMENT,
    )
    return st.lists(entry, max_size=4, unique_by=lambda entry: entry.key)  # a key twice is Z020


def _containers(children: st.SearchStrategy[Value]) -> st.SearchStrategy[Value]:
    return st.one_of(
        st.builds(
            lambda items, dangling: Array(items=items, dangling=dangling),
            st.lists(_decorate(children), max_size=4),
            COMMENTS,
        ),
        st.builds(
            lambda entries, dangling: Map(entries=entries, dangling=dangling), _entries(children), COMMENTS
        ),
        st.builds(lambda name, entries: Struct(entries=entries, name=name), IDENTIFIERS, _entries(children)),
    )


LITERALS: st.SearchStrategy[Value] = st.recursive(SCALARS, _containers, max_leaves=12)


@st.composite
def commented_graphs(draw: st.DrawFn) -> Graph:
    """Any graph-shaped document, with comments everywhere a comment can go."""
    nodes = draw(st.lists(st.builds(lambda e: Node(entries=e), _entries(LITERALS)), max_size=4))
    for node in nodes:
        node.leading = draw(COMMENTS)
        node.trailing = draw(MAYBE_COMMENT)
    entries = [
        Entry(key="name", value=String(draw(st.text(max_size=10))), trailing=draw(MAYBE_COMMENT)),
        Entry(key="nodes", value=Array(items=list(nodes), dangling=draw(COMMENTS)), leading=draw(COMMENTS)),
    ]
    entries += draw(_entries(LITERALS))
    return Graph(entries, leading=draw(COMMENTS), footer=draw(COMMENTS), dangling=draw(COMMENTS))


# Ops that cannot fail on any input: Divide fails on zero, Verify on a malformed public key
# (its third input), and Timestamp is left out only to keep runs comparable.
SAFE_OPS = [
    op
    for op in OPS
    if op not in {"Divide", "Timestamp", "Verify", "MemoryStore", "MemoryRecall", "MemoryQuery"}
]


@st.composite
def runnable_graphs(draw: st.DrawFn) -> Graph:
    """Valid graphs: constants, externals and ops, each reading only earlier nodes."""
    count = draw(st.integers(min_value=1, max_value=12))
    nodes: list[Node] = []
    ids: list[str] = []
    for index in range(count):
        node_id = f"n{index}"
        kind = draw(
            st.sampled_from(["Constant", "Operation", "Operation", "External", "Lookup"])
            if ids
            else st.just("Constant")
        )
        entries = [Entry(key="id", value=String(node_id)), Entry(key="type", value=String(kind))]
        if kind == "Constant":
            entries.append(Entry(key="value", value=draw(LITERALS)))
        elif kind == "External":
            entries.append(
                Entry(key="uri", value=String(f"input://{draw(st.sampled_from(['a', 'b', 'c']))}"))
            )
        elif kind == "Lookup":
            table = Map(
                entries=[Entry(key=draw(st.text(max_size=4)), value=String(draw(st.text(max_size=4))))]
            )
            entries += [
                Entry(key="table", value=table),
                Entry(key="inputs", value=Array(items=[String(draw(st.sampled_from(ids)))])),
            ]
        else:
            op = draw(st.sampled_from(SAFE_OPS))
            fewest, most = OPERATIONS[op].arity  # as many inputs as the op reads (Z021)
            size = st.integers(min_value=fewest, max_value=3 if most is None else most)
            inputs = [draw(st.sampled_from(ids)) for _ in range(draw(size))]
            params = Map(
                entries=[
                    Entry(key=k, value=draw(SCALARS))
                    for k in draw(
                        st.lists(
                            st.sampled_from(["field", "prefix", "separator", "index"]),
                            max_size=2,
                            unique=True,
                        )
                    )
                ]
            )
            entries += [
                Entry(key="op", value=String(op)),
                Entry(key="inputs", value=Array(items=[String(i) for i in inputs])),
                Entry(key="params", value=params),
            ]
        nodes.append(Node(entries=entries))
        ids.append(node_id)
    outputs = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
    return Graph(
        [
            Entry(key="name", value=String("generated")),
            Entry(key="nodes", value=Array(items=list(nodes))),
            Entry(key="outputs", value=Array(items=[String(o) for o in outputs])),
        ]
    )


__all__ = ["LITERALS", "commented_graphs", "runnable_graphs", "string"]

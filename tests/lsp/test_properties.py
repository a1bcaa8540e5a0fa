"""Properties of the language server's features over generated graphs and half-typed text."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from tests.lsp.conftest import apply_edits
from tests.lsp.samples import GREETER, ROUTER
from tests.strategies import commented_graphs, runnable_graphs
from zerolang.lsp import navigation, symbols
from zerolang.lsp.analysis import analyse
from zerolang.lsp.completion import completions
from zerolang.lsp.hover import hover
from zerolang.syntax.ast import Array, Graph, Map, String
from zerolang.syntax.parser import parse
from zerolang.syntax.printer import print_graph

URI = "file:///generated.0"


def renamed(graph: Graph, old: str, new: str) -> Graph:
    """`graph` with node id `old` called `new` wherever a node id is read (the expected result)."""

    def swap(value: String) -> None:
        head, dot, rest = value.value.partition(".")
        if head == old:
            value.value = new + dot + rest
            value.bare = False

    for node in graph.nodes:
        for key in ("id",):
            found = node.get(key)
            if isinstance(found, String) and found.value == old:
                found.value = new
        inputs = node.get("inputs")
        if isinstance(inputs, Array):
            for item in inputs.items:
                if isinstance(item, String):
                    swap(item)
        conditions = node.get("conditions")
        if node.type == "Route" and isinstance(conditions, Array):
            for condition in conditions.items:
                name = condition.get("input") if isinstance(condition, Map) else None
                if isinstance(name, String) and name.value == old:
                    name.value = new
    outputs = graph.get("outputs")
    if isinstance(outputs, Array):
        for item in outputs.items:
            if isinstance(item, String):
                swap(item)
    return graph


@settings(max_examples=scaled(60), deadline=None, derandomize=True)
@given(graph=runnable_graphs(), new=st.from_regex(r"[a-z][a-z0-9_ -]{0,8}", fullmatch=True))
def test_rename_changes_every_reference_and_nothing_else(graph: Graph, new: str) -> None:
    source = print_graph(graph)
    analysis = analyse(source, None)
    assume(new not in analysis.definitions() and new not in ("true", "false", "null"))
    target = analysis.definitions()["n0"]
    edit = navigation.rename(analysis, URI, target.start, new)
    assert edit is not None and edit.changes is not None
    after = apply_edits(source, list(edit.changes[URI]))
    assert parse(after) == renamed(parse(source), "n0", new)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(graph=commented_graphs(), at=st.floats(0, 1))
def test_every_feature_answers_anywhere_in_any_graph(graph: Graph, at: float) -> None:
    source = print_graph(graph)
    analysis = analyse(source, None)
    offset = int(len(source) * at)
    hover(analysis, offset)
    navigation.definition(analysis, URI, offset)
    navigation.references(analysis, URI, offset, True)
    navigation.prepare_rename(analysis, offset)
    symbols.graph_symbols(analysis)
    for item in completions(source, offset).items:
        assert item.label


@settings(max_examples=scaled(150), deadline=None, derandomize=True)
@given(text=st.sampled_from([GREETER, ROUTER]), cut=st.floats(0, 1), at=st.floats(0, 1))
def test_completion_and_hover_never_fail_on_half_typed_text(text: str, cut: float, at: float) -> None:
    partial = text[: int(len(text) * cut)]
    offset = int(len(partial) * at)
    for item in completions(partial, offset).items:
        assert item.label
    hover(analyse(partial, None), offset)

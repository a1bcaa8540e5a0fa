"""Completion of ops, node types, node ids and keys, in text that does not parse yet."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session, apply_edits
from zerolang.runtime.catalog import NODE_TYPES, OPS

pytestmark = pytest.mark.asyncio

HEAD = 'Graph {\n    name: "g",\n    nodes: [\n        { id: "message", type: External, uri: "input://message" },\n'


async def complete(
    session: Session, text: str, name: str = "typing.0"
) -> tuple[str, list[types.CompletionItem]]:
    """Open `text` with `|` marking the cursor; the items offered there."""
    cursor = text.index("|")
    source = text.replace("|", "", 1)
    uri = await session.open(name, source)
    line = source.count("\n", 0, cursor)
    character = cursor - (source.rfind("\n", 0, cursor) + 1)
    result = await session.client.text_document_completion_async(
        types.CompletionParams(
            text_document=session.doc(uri), position=types.Position(line=line, character=character)
        )
    )
    assert isinstance(result, types.CompletionList)
    return source, list(result.items)


def accept(source: str, item: types.CompletionItem) -> str:
    assert isinstance(item.text_edit, types.TextEdit)
    return apply_edits(source, [item.text_edit])


async def test_ops_after_op(session: Session) -> None:
    source, items = await complete(session, HEAD + '        { id: "x", type: Operation, op: Con|')
    assert [item.label for item in items] == list(OPS)
    (concat,) = [item for item in items if item.label == "Concat"]
    assert concat.kind == types.CompletionItemKind.Function
    assert isinstance(concat.documentation, types.MarkupContent)
    assert "separator" in concat.documentation.value
    assert accept(source, concat).endswith("op: Concat")


async def test_node_types_after_type(session: Session) -> None:
    source, items = await complete(session, HEAD + '        { id: "x", type: "Per|" }\n    ],\n}\n')
    assert [item.label for item in items] == list(NODE_TYPES)
    (permission,) = [item for item in items if item.label == "Permission"]
    assert 'type: "Permission" }' in accept(source, permission)  # inside quotes: no quotes added


async def test_node_ids_in_inputs_outputs_and_conditions(session: Session) -> None:
    more = '        { id: "lower", type: Operation, op: ToLower, inputs: ["message"] },\n'
    source, items = await complete(
        session, HEAD + more + '        { id: "n", type: Operation, op: Trim, inputs: [|'
    )
    assert [item.label for item in items] == ["message", "lower"]  # not the node itself
    assert accept(source, items[1]).endswith('inputs: ["lower"')
    _, items = await complete(session, HEAD + more + '    ],\n    outputs: ["lo|"],\n}\n', "out.0")
    assert {item.label for item in items} == {"message", "lower"}
    route = '        { id: "r", type: Route, conditions: [{ input: |'
    _, items = await complete(session, HEAD + more + route, "route.0")
    assert {item.label for item in items} == {"message", "lower"}


async def test_keys_for_the_node_type_params_and_graph(session: Session) -> None:
    source, items = await complete(session, HEAD + '        { id: "p", type: Permission, | }\n    ],\n}\n')
    labels = [item.label for item in items]
    assert labels[:4] == ["inputs", "params", "action", "min_confidence"]  # id and type are written
    assert "uri" not in labels
    assert accept(source, items[3]).count("min_confidence: ") == 1
    _, items = await complete(
        session, HEAD + '        { id: "s", type: Operation, op: StartsWith, params: { | } }', "params.0"
    )
    assert [item.label for item in items] == ["prefix"]
    _, items = await complete(session, 'Graph {\n    name: "g",\n    |\n}\n', "graph.0")
    labels = [item.label for item in items]
    assert "nodes" in labels and "outputs" in labels and "name" not in labels

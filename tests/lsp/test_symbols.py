"""Document symbols: the graph and its nodes; a `.0c` document's contexts and concepts."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session
from tests.lsp.samples import MEMORY_L2, ROUTER
from zerolang.syntax.parser import parse

pytestmark = pytest.mark.asyncio


async def symbols(session: Session, uri: str) -> list[types.DocumentSymbol]:
    result = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=session.doc(uri))
    )
    assert result is not None
    return [symbol for symbol in result if isinstance(symbol, types.DocumentSymbol)]


async def test_the_graph_and_its_nodes(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    (graph,) = await symbols(session, uri)
    assert graph.name == "message_router"
    assert graph.kind == types.SymbolKind.Module
    children = graph.children or []
    assert [child.name for child in children] == [node.id for node in parse(ROUTER).nodes]
    by_name = {child.name: child for child in children}
    assert by_name["command"].detail == "Operation ExtractFirstWord"
    assert by_name["command"].kind == types.SymbolKind.Function
    assert by_name["route"].detail == "Route"
    lines = ROUTER.split("\n")
    selection = by_name["permission"].selection_range
    assert lines[selection.start.line][selection.start.character : selection.end.character] == "permission"
    whole = by_name["permission"].range
    assert lines[whole.start.line].strip() == "{" and lines[whole.end.line].strip() == "},"


async def test_contexts_and_concepts_of_a_compact_document(session: Session) -> None:
    uri = await session.open("memory.0c", MEMORY_L2)
    found = await symbols(session, uri)
    names = [symbol.name for symbol in found]
    assert names[:3] == ["1 long-term-memory", "2 knowledge-graph", "3 0-memory"]
    contexts = [symbol for symbol in found if symbol.detail == "context"]
    assert contexts[0].name == "user_prompt 0-memory_design"
    assert [symbol.range.start.line for symbol in found] == sorted(
        symbol.range.start.line for symbol in found
    )

"""Hover: docs for node types, ops, keys and params; what a node id names."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session, position_of
from tests.lsp.samples import GREETER, MEMORY_L2, ROUTER

pytestmark = pytest.mark.asyncio


async def hover_text(session: Session, uri: str, position: types.Position) -> str | None:
    result = await session.client.text_document_hover_async(
        types.HoverParams(text_document=session.doc(uri), position=position)
    )
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def test_an_op_shows_its_builtin_docs_and_params(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    text = await hover_text(session, uri, position_of(ROUTER, "StartsWith", shift=3))
    assert text is not None
    assert text.startswith("**StartsWith** (op)")
    assert "starts with `params.prefix`" in text
    assert "Params: `prefix`" in text


async def test_a_node_type_shows_what_it_produces_and_its_fields(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    text = await hover_text(session, uri, position_of(ROUTER, "type: Permission", shift=7))
    assert text is not None
    assert text.startswith("**Permission** (node type)")
    assert "`sender_confidence`" in text
    assert "Fields: `action`, `min_confidence`" in text


async def test_keys_and_params_explain_themselves(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    field = await hover_text(session, uri, position_of(ROUTER, "min_confidence: 0.7"))
    assert field is not None and "(node field)" in field and "Required for `Permission`" in field
    condition = await hover_text(session, uri, position_of(ROUTER, "match_value:", 1, shift=2))
    assert condition is not None and "(condition field)" in condition and "exactly this string" in condition
    param = await hover_text(session, uri, position_of(ROUTER, "prefix:"))
    assert param is not None and "`StartsWith` param `prefix`" in param
    graph = await hover_text(session, uri, position_of(ROUTER, "outputs: ["))
    assert graph is not None and "(graph field)" in graph


async def test_an_unknown_op_suggests_the_real_one(session: Session) -> None:
    uri = await session.open("greeter.0", GREETER)
    text = await hover_text(session, uri, position_of(GREETER, "Eq,"))
    assert text == "`Eq`: no such op in the runtime; did you mean `Equals`?"


async def test_a_node_id_shows_the_node_it_names(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    text = await hover_text(session, uri, position_of(ROUTER, 'inputs: ["command"]', shift=11))
    line = ROUTER[: ROUTER.index('id: "command"')].count("\n") + 1
    assert text == f"**command**: Operation `ExtractFirstWord` node (line {line})\n\nreads `message`"
    on_output = await hover_text(session, uri, position_of(ROUTER, '"route.target"', 1, shift=2))
    assert on_output is not None and on_output.startswith("**route**: Route node")


async def test_a_concept_number_in_a_compact_document_shows_its_concept(session: Session) -> None:
    uri = await session.open("memory.0c", MEMORY_L2)
    text = await hover_text(session, uri, position_of(MEMORY_L2, "includes4", shift=8))
    assert text is not None and text.startswith("**episodic-memory**: concept 4")


async def test_docs_still_show_while_the_file_does_not_parse(session: Session) -> None:
    broken = ROUTER.replace("op: StartsWith, inputs", "op: StartsWith inputs")  # a comma missing
    uri = await session.open("broken.0", broken)
    assert session.diagnostics(uri)[0].code is None  # a syntax error
    text = await hover_text(session, uri, position_of(broken, "StartsWith", shift=2))
    assert text is not None and text.startswith("**StartsWith** (op)")
    node_type = await hover_text(session, uri, position_of(broken, "type: Lookup", shift=7))
    assert node_type is not None and node_type.startswith("**Lookup** (node type)")

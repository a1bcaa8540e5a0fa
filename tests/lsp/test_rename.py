"""Rename a node id: its definition and every reference, in inputs, outputs and conditions."""

from __future__ import annotations

import logging

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.lsp.conftest import Session, apply_edits, position_of
from tests.lsp.samples import ROUTER
from zerolang.runtime.interpreter import run
from zerolang.syntax.parser import parse
from zerolang.tools.lint import lint_source

pytestmark = pytest.mark.asyncio


async def rename(session: Session, uri: str, position: types.Position, name: str) -> types.WorkspaceEdit:
    result = await session.client.text_document_rename_async(
        types.RenameParams(text_document=session.doc(uri), position=position, new_name=name)
    )
    assert result is not None and result.changes is not None
    return result


async def test_renaming_an_id_renames_every_reference(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=session.doc(uri), position=position_of(ROUTER, '"route"', shift=1)
        )
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == "route"

    edit = await rename(session, uri, position_of(ROUTER, '"route.target"', 1, shift=2), "router")
    assert edit.changes is not None
    edits = list(edit.changes[uri])
    assert len(edits) == 3  # the id, `route.target` in the If's inputs and in `outputs`
    after = apply_edits(ROUTER, edits)
    assert 'id: "router",\n            type: Route' in after
    assert '"router.target"' in after and '"route.target"' not in after.split("outputs:")[1]
    assert lint_source(after) == lint_source(ROUTER)  # as valid (and as warned about) as before
    inputs = {"message": "hello there", "sender_confidence": 0.9}
    assert (
        run(parse(after), inputs).outputs["router.target"]
        == run(parse(ROUTER), inputs).outputs["route.target"]
    )


async def test_a_bare_id_gets_quotes_when_the_new_name_needs_them(session: Session) -> None:
    text = 'Graph { name: "g", nodes: [{ id: a, type: Constant, value: 1 }], outputs: [a] }\n'
    uri = await session.open("bare.0", text)
    after = apply_edits(text, list((await rename(session, uri, position_of(text, "a,"), "a b")).changes[uri]))
    assert (
        after == 'Graph { name: "g", nodes: [{ id: "a b", type: Constant, value: 1 }], outputs: ["a b"] }\n'
    )


async def test_a_rename_that_would_clash_or_break_is_refused(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    position = position_of(ROUTER, 'id: "intent"', shift=6)
    with pytest.raises(JsonRpcException, match="already has the id `message`"):
        await rename(session, uri, position, "message")
    with pytest.raises(JsonRpcException, match="cannot be a node id"):
        await rename(session, uri, position, "intent.kind")
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=session.doc(uri), position=position_of(ROUTER, "ExtractParams")
        )
    )
    assert prepared is None


async def test_a_refused_rename_is_one_log_line_not_a_traceback(
    session: Session, caplog: pytest.LogCaptureFixture
) -> None:
    uri = await session.open("router.0", ROUTER)
    position = position_of(ROUTER, 'id: "intent"', shift=6)
    with caplog.at_level("DEBUG"), pytest.raises(JsonRpcException, match="already has the id `message`"):
        await rename(session, uri, position, "message")
    shown = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert shown == ["zero lsp: request refused: a node already has the id `message`"]
    assert all(record.exc_info is None for record in caplog.records)
    assert "Traceback" not in caplog.text

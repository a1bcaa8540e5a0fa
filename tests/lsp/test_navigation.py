"""Go to definition and find references for node ids in inputs, outputs and route conditions."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest
from lsprotocol import types

from tests.lsp.conftest import TIMEOUT, Session, position_of
from tests.lsp.samples import MEMORY_L2, ROUTER
from zerolang.lsp import worker as worker_module
from zerolang.lsp.analysis import Analysis

pytestmark = pytest.mark.asyncio


def span_of(text: str, needle: str, nth: int = 0, shift: int = 0, length: int | None = None) -> types.Range:
    start = position_of(text, needle, nth, shift)
    size = len(needle) - shift if length is None else length
    return types.Range(start=start, end=types.Position(line=start.line, character=start.character + size))


async def definition(session: Session, uri: str, position: types.Position) -> types.Location | None:
    result = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=session.doc(uri), position=position)
    )
    assert result is None or isinstance(result, types.Location)
    return result


async def test_definition_from_inputs_outputs_and_conditions(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    is_command = span_of(ROUTER, 'id: "is_command"', shift=5, length=len("is_command"))
    for needle, nth in (('"is_command"', 1), ('"is_command"', 2)):  # in `inputs`, in a condition
        found = await definition(session, uri, position_of(ROUTER, needle, nth, shift=3))
        assert found == types.Location(uri=uri, range=is_command)
    # `route.target` in outputs: the id before the dot.
    route = span_of(ROUTER, 'id: "route"', shift=5, length=len("route"))
    found = await definition(session, uri, position_of(ROUTER, '"route.target"', 1, shift=1))
    assert found == types.Location(uri=uri, range=route)
    # Not on an id: nothing.
    assert await definition(session, uri, position_of(ROUTER, "ExtractParams")) is None


async def test_references_of_a_node_id(session: Session) -> None:
    uri = await session.open("router.0", ROUTER)
    position = position_of(ROUTER, 'id: "intent"', shift=6)

    async def references(declaration: bool) -> list[types.Location]:
        result = await session.client.text_document_references_async(
            types.ReferenceParams(
                text_document=session.doc(uri),
                position=position,
                context=types.ReferenceContext(include_declaration=declaration),
            )
        )
        return list(result or [])

    found = await references(False)
    lines = [ROUTER.split("\n")[location.range.start.line].strip() for location in found]
    # inputs of route, three conditions, and `outputs`.
    assert len(found) == 5
    assert lines[0].startswith('inputs: ["is_command", "intent", "message"]')
    assert sum("match_value" in line for line in lines) == 3
    assert lines[-1].startswith("outputs:")
    for location in found:
        line = ROUTER.split("\n")[location.range.start.line]
        assert line[location.range.start.character : location.range.end.character] == "intent"
    assert len(await references(True)) == 6


async def test_definition_and_references_of_a_compact_concept(session: Session) -> None:
    uri = await session.open("memory.0c", MEMORY_L2)
    lines = MEMORY_L2.split("\n")
    found = await definition(session, uri, position_of(MEMORY_L2, "6 needs1", shift=7))
    assert found is not None
    assert lines[found.range.start.line].startswith("long-term-memory|LTM")
    result = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=session.doc(uri),
            position=position_of(MEMORY_L2, "6 needs1", shift=7),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    mentions = [lines[location.range.start.line] for location in result or []]
    assert mentions and all("1" in line for line in mentions)
    assert "6 needs1 95" in mentions and "6 needs1 70" in mentions


async def test_a_request_waiting_for_the_analysis_under_way_holds_up_no_other(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Go to definition needs the analysis of the text as it is: while that runs, it waits for it
    without holding the event loop, so a completion sent after it is answered first."""
    uri = await session.open("router.0", ROUTER)
    started, release = threading.Event(), threading.Event()
    real = worker_module.analyse

    def slow(source: str, path: str | None, encoding: str, checkpoint: Callable[[], None]) -> Analysis:
        started.set()
        release.wait(TIMEOUT)
        return real(source, path, encoding, checkpoint=checkpoint)

    monkeypatch.setattr(worker_module, "analyse", slow)
    changed = ROUTER + "# an edit at the end\n"
    session.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=changed)],
        )
    )
    assert await asyncio.to_thread(started.wait, TIMEOUT)
    going = asyncio.ensure_future(
        definition(session, uri, position_of(changed, '"route.target"', 1, shift=1))
    )
    for _ in range(3):  # let the task send its request: the server reads it before the completion's
        await asyncio.sleep(0)
    listed = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=session.doc(uri), position=position_of(changed, "op: ", shift=4))
    )
    assert listed is not None and listed.items
    assert not going.done()  # still waiting for the analysis, which waits for `release`
    release.set()
    found = await asyncio.wait_for(going, TIMEOUT)
    route = span_of(changed, 'id: "route"', shift=5, length=len("route"))
    assert found == types.Location(uri=uri, range=route)

"""Formatting: `zero fmt`'s canonical text, for `.0` and `.0c`; nothing when it is already canonical."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session, apply_edits
from tests.lsp.samples import GREETER, MEMORY_L2
from zerolang.knowledge.formats.compact import format_text
from zerolang.tools.formatter import format_source

pytestmark = pytest.mark.asyncio

OPTIONS = types.FormattingOptions(tab_size=4, insert_spaces=True)


async def format_document(session: Session, uri: str) -> list[types.TextEdit]:
    result = await session.client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=session.doc(uri), options=OPTIONS)
    )
    return list(result or [])


async def test_a_graph_is_formatted_as_zero_fmt_does(session: Session) -> None:
    uri = await session.open("greeter.0", GREETER)
    edits = await format_document(session, uri)
    formatted = apply_edits(GREETER, edits)
    assert formatted == format_source(GREETER)
    assert formatted != GREETER
    await session.change(uri, formatted)
    assert await format_document(session, uri) == []


async def test_the_line_width_comes_from_pyproject(session: Session) -> None:
    (session.folder / "pyproject.toml").write_text("[tool.zero]\nline-width = 40\n", encoding="utf-8")
    uri = await session.open("narrow.0", GREETER)
    formatted = apply_edits(GREETER, await format_document(session, uri))
    assert formatted == format_source(GREETER, width=40)
    assert formatted != format_source(GREETER)


async def test_text_that_does_not_parse_is_left_alone(session: Session) -> None:
    uri = await session.open("broken.0", GREETER.replace("nodes: [", "nodes: [[", 1))
    assert await format_document(session, uri) == []


async def test_a_compact_document_is_formatted_as_zero_fmt_does(session: Session) -> None:
    messy = MEMORY_L2.replace("\n0M:1.0", "\n\n\n0M:1.0") + "\n\n"
    uri = await session.open("memory.0c", messy)
    formatted = apply_edits(messy, await format_document(session, uri))
    assert formatted == format_text(messy)
    assert formatted != messy

"""Diagnostics: the validator's and the linter's findings, published on open and again on every change."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session, open_session, position_of
from tests.lsp.samples import GREETER, MEMORY_L2

pytestmark = pytest.mark.asyncio


async def test_findings_on_open_then_updated_as_the_text_changes(session: Session) -> None:
    uri = await session.open("greeter.0", GREETER)
    found = {d.code: d for d in session.diagnostics(uri)}
    assert set(found) == {"Z003", "Z011"}
    eq = found["Z003"]
    assert eq.severity == types.DiagnosticSeverity.Error
    assert eq.source == "zero"
    assert "did you mean `Equals`" in eq.message
    assert eq.range.start == position_of(GREETER, "Eq,")
    assert eq.range.end == position_of(GREETER, "Eq,", shift=2)
    unused = found["Z011"]
    assert unused.severity == types.DiagnosticSeverity.Warning
    assert list(unused.tags or []) == [types.DiagnosticTag.Unnecessary]
    assert unused.range.start == position_of(GREETER, '"unused"')

    # The user types a reference to a node that does not exist: the validator's Z004 appears.
    broken = GREETER.replace('inputs: ["hello", "message"]', 'inputs: ["hello", "mesage"]')
    await session.change(uri, broken)
    z004 = [d for d in session.diagnostics(uri) if d.code == "Z004"]
    assert len(z004) == 1
    assert "did you mean `message`" in z004[0].message
    assert z004[0].range.start == position_of(broken, '"mesage"')

    # ... fixes everything: the diagnostics are cleared.
    clean = GREETER.replace("op: Eq", "op: Equals").replace(
        '    { id: "unused", type: Constant, value: 1 },\n', ""
    )
    await session.change(uri, clean)
    assert session.diagnostics(uri) == []


async def test_text_that_does_not_parse_is_one_error_where_the_parser_stopped(session: Session) -> None:
    text = GREETER.replace('uri: "input://message" }', 'uri: "input://message" ')
    uri = await session.open("broken.0", text)
    (only,) = session.diagnostics(uri)
    assert only.code is None
    assert only.severity == types.DiagnosticSeverity.Error
    assert only.range.start.line == 5  # the line after the map left open


async def test_columns_are_utf16_units_after_astral_characters(session: Session) -> None:
    text = 'Graph { name: "😀😀", nodes: [{ id: "a", type: Operation, op: Eq }], outputs: ["a"] }\n'
    uri = await session.open("emoji.0", text)
    (eq,) = [d for d in session.diagnostics(uri) if d.code == "Z003"]
    # Each 😀 is one code point but two UTF-16 units: the op starts 2 units later than its index.
    assert eq.range.start.character == text.index("Eq") + 2


async def test_columns_are_bytes_for_a_client_that_counts_in_utf8(tmp_path: Path) -> None:
    text = 'Graph { name: "é😀", nodes: [{ id: "a", type: Operation, op: Eq }], outputs: ["a"] }\n'
    utf8 = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    )
    async with open_session(tmp_path, utf8) as session:
        uri = await session.open("bytes.0", text)
        (eq,) = [d for d in session.diagnostics(uri) if d.code == "Z003"]
        # é is 2 bytes, 😀 is 4: the op starts 4 bytes later than its index in the text.
        assert eq.range.start.character == text.index("Eq") + 4
        hover = await session.client.text_document_hover_async(
            types.HoverParams(text_document=session.doc(uri), position=eq.range.start)
        )
        assert hover is not None and hover.range == eq.range


async def test_noqa_comments_and_settings_are_respected(session: Session) -> None:
    (session.folder / "pyproject.toml").write_text('[tool.zero.lint]\nignore = ["Z011"]\n', encoding="utf-8")
    text = GREETER.replace("op: Eq, inputs", "op: Eq, inputs").replace(
        "# is it a greeting?", "# zero: noqa: Z003"
    )
    uri = await session.open("quiet.0", text)
    assert session.diagnostics(uri) == []


async def test_compact_documents_get_their_own_checks(session: Session) -> None:
    text = MEMORY_L2.replace("7 is_part_of8 75", "7 is_part_of42 75")
    uri = await session.open("memory.0c", text)
    (dangling,) = session.diagnostics(uri)
    assert dangling.code == "C001"
    assert "no concept 42" in dangling.message
    assert dangling.range.start.line == text.split("\n").index("7 is_part_of42 75")


async def test_a_burst_of_changes_is_checked_once_at_its_last_version(session: Session) -> None:
    session.server.debounce = 2.0  # seconds: far longer than sending four changes takes, even under load
    uri = await session.open("greeter.0", GREETER)
    published: list[int | None] = []

    def record(params: types.PublishDiagnosticsParams) -> None:
        published.append(params.version)

    # In place of pytest-lsp's recorder, for this test: every publication, with its version.
    session.client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    for typed in ("Equ", "Equa", "Equal", "Equals"):  # the user types `uals` after `Eq`, key by key
        session.versions[uri] += 1
        session.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=session.versions[uri]),
                content_changes=[
                    types.TextDocumentContentChangeWholeDocument(text=GREETER.replace("Eq,", f"{typed},"))
                ],
            )
        )
    for _ in range(600):
        if published:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # any other publication would have been due at the same moment
    assert published == [session.versions[uri]]


async def test_closing_clears_the_diagnostics_even_with_a_check_pending(session: Session) -> None:
    session.server.debounce = 0.5
    uri = await session.open("greeter.0", GREETER)
    assert session.diagnostics(uri)
    session.versions[uri] += 1
    session.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=session.versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=GREETER + "# more\n")],
        )
    )
    waiting = session.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await asyncio.wait_for(waiting, 30)
    assert session.diagnostics(uri) == []
    await asyncio.sleep(1.0)  # past the pending check, which must not bring them back
    assert session.diagnostics(uri) == []

"""`zero lsp` end to end: started as a process the way an editor starts it, over stdin and stdout."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp.client import make_test_lsp_client
from typer.testing import CliRunner

from tests.lsp.conftest import TIMEOUT
from tests.lsp.samples import GREETER, ROOT
from zerolang.cli.app import app


@pytest.mark.slow
@pytest.mark.asyncio
async def test_zero_lsp_serves_an_editor_over_stdio(tmp_path: Path) -> None:
    client = make_test_lsp_client()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    await client.start_io(sys.executable, "-m", "zerolang", "lsp", "--stdio", env=env)
    try:
        result = await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri())
            ),
            TIMEOUT,
        )
        assert result.server_info is not None and result.server_info.name == "zero-lsp"
        capabilities = result.capabilities
        assert capabilities.hover_provider and capabilities.definition_provider
        assert capabilities.references_provider and capabilities.rename_provider
        assert capabilities.document_formatting_provider and capabilities.document_symbol_provider
        assert capabilities.completion_provider is not None and capabilities.code_action_provider
        path = tmp_path / "greeter.0"
        path.write_text(GREETER, encoding="utf-8")
        waiting = client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=path.as_uri(), language_id="zero", version=1, text=GREETER
                )
            )
        )
        await asyncio.wait_for(waiting, TIMEOUT)
        assert {d.code for d in client.diagnostics[path.as_uri()]} == {"Z003", "Z011"}
    finally:
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
    assert client._server is not None and client._server.returncode == 0


@pytest.mark.slow
@pytest.mark.asyncio
async def test_zero_lsp_refuses_a_rename_without_a_traceback(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A refused request is an LSP error for the editor and one line on the server's stderr."""
    client = make_test_lsp_client()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    text = (
        'Graph { name: "g", nodes: [{ id: a, type: Constant, value: 1 }, '
        "{ id: b, type: Constant, value: 2 }], outputs: [a, b] }\n"
    )
    await client.start_io(sys.executable, "-m", "zerolang", "lsp", "--stdio", env=env)
    try:
        await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri())
            ),
            TIMEOUT,
        )
        path = tmp_path / "g.0"
        path.write_text(text, encoding="utf-8")
        waiting = client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=path.as_uri(), language_id="zero", version=1, text=text
                )
            )
        )
        await asyncio.wait_for(waiting, TIMEOUT)
        params = types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=0, character=text.index("a,")),
            new_name="b",
        )
        with pytest.raises(JsonRpcException, match="already has the id `b`"):
            await asyncio.wait_for(client.text_document_rename_async(params), TIMEOUT)
    finally:
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
    stderr = capfd.readouterr().err
    assert "Traceback" not in stderr
    assert [line for line in stderr.splitlines() if line.strip()] == [
        "zero lsp: request refused: a node already has the id `b`"
    ]


def test_without_pygls_zero_lsp_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.startswith(("zerolang.lsp.server", "pygls"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pygls", None)  # importing it now fails, as when it is not installed
    result = CliRunner().invoke(app, ["lsp"])
    assert result.exit_code == 1
    assert 'zero lsp needs pygls: python -m pip install ".[lsp]" (in a clone of zerolang)' in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_zero_help_does_not_load_the_language_server() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "zerolang", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert "lsp" in result.stdout  # the command is listed ...
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    for module in ("pygls", "lsprotocol", "cattrs", "zerolang.lsp", "zerolang.lsp.server"):
        assert module not in imported, f"{module} is imported by --help"  # ... but nothing of it loads

"""A bad `[tool.zero]` never stops the server: it is a diagnostic on pyproject.toml and a notice on the
document, and the document is checked with the default settings (issue 41, point 2)."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from tests.lsp.conftest import TIMEOUT, Session, position_of
from tests.lsp.samples import GREETER, MEMORY_L2

pytestmark = pytest.mark.asyncio

# Each bad setting, and the text the diagnostic on pyproject.toml points at (its line holds it).
BAD = {
    "unknown ignore code": ('[tool.zero.lint]\nignore = ["Z999"]\n', "Z999", "unknown rule code `Z999`"),
    "unknown select code": ('[tool.zero.lint]\nselect = ["Z0", "Q1"]\n', "Q1", "unknown rule code `Q1`"),
    "unknown per-file code": (
        '[tool.zero.lint.per-file-ignores]\n"*.0" = ["Z011", "Z404"]\n',
        "Z404",
        "unknown rule code `Z404`",
    ),
    "per-file code inline": (
        '[tool.zero.lint]\nper-file-ignores = { "other/*.0" = ["X1"] }\n',
        "X1",
        "unknown rule code `X1`",
    ),
    "ignore not a list": ('[tool.zero.lint]\nignore = "Z011"\n', "ignore", "must be a list of rule codes"),
    "select of numbers": ("[tool.zero.lint]\nselect = [8]\n", "select", "must be a list of rule codes"),
    "per-file-ignores not a table": (
        '[tool.zero.lint]\nper-file-ignores = ["Z011"]\n',
        "per-file-ignores",
        "per-file-ignores must be a table",
    ),
    "line-width a string": (
        '[tool.zero]\nline-width = "wide"\n',
        "line-width",
        "line-width must be an integer",
    ),
    "line-width too small": ("[tool.zero]\nline-width = 3\n", "line-width", "line-width must be an integer"),
    "lint not a table": ("[tool.zero]\nlint = 3\n", "lint", "[tool.zero.lint] must be a table"),
    "misspelt key": ('[tool.zero.lint]\nselct = ["Z001"]\n', "selct", "did you mean `select`?"),
    "exclude not a list": ('[tool.zero]\nexclude = "build"\n', "exclude", "exclude must be a list of globs"),
    "not TOML": ("[tool.zero\nline-width = 80\n", "[tool.zero", "cannot read settings"),
}


async def pyproject_diagnostics(session: Session, *, empty: bool = False) -> list[types.Diagnostic]:
    """The diagnostics published on pyproject.toml, once there are some (or once they are cleared)."""
    uri = session.uri("pyproject.toml")

    async def published() -> list[types.Diagnostic]:
        while (uri not in session.client.diagnostics) or (bool(session.client.diagnostics[uri]) == empty):
            await asyncio.sleep(0.01)
        return session.diagnostics(uri)

    return await asyncio.wait_for(published(), TIMEOUT)


@pytest.mark.parametrize("case", list(BAD))
async def test_a_bad_setting_is_reported_and_the_defaults_are_used(session: Session, case: str) -> None:
    config, pointed, said = BAD[case]
    (session.folder / "pyproject.toml").write_text(config, encoding="utf-8")
    uri = await session.open("greeter.0", GREETER)

    # The document is checked with the defaults: every rule, and a notice saying why.
    found = session.diagnostics(uri)
    codes = [diagnostic.code for diagnostic in found]
    assert {"Z003", "Z011"} <= set(codes), codes
    (notice,) = [diagnostic for diagnostic in found if diagnostic.code == "config"]
    assert notice.severity == types.DiagnosticSeverity.Warning
    assert said in notice.message and "checked with the default settings" in notice.message
    assert "pyproject.toml:" in notice.message

    # On pyproject.toml: the setting, where it is written.
    (problem,) = await pyproject_diagnostics(session)
    assert problem.code == "config" and problem.severity == types.DiagnosticSeverity.Error
    assert said in problem.message
    assert problem.range.start == position_of(config, pointed)

    # And a message in the window, once (it follows the diagnostic).
    async def shown() -> list[types.ShowMessageParams]:
        while not any(said in message.message for message in session.client.messages):
            await asyncio.sleep(0.01)
        return [message for message in session.client.messages if said in message.message]

    (message,) = await asyncio.wait_for(shown(), TIMEOUT)
    assert message.type == types.MessageType.Warning

    # The server still answers: hover, and a second document.
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=session.doc(uri), position=position_of(GREETER, "Concat", shift=2))
    )
    assert hover is not None and "Concat" in str(hover.contents)
    other = await session.open("memory.0c", MEMORY_L2)
    assert [d.code for d in session.diagnostics(other)] == ["config"]
    assert sum(said in message.message for message in session.client.messages) == 1  # said once


async def test_fixing_the_setting_clears_its_diagnostic_and_the_notice(session: Session) -> None:
    pyproject = session.folder / "pyproject.toml"
    pyproject.write_text('[tool.zero.lint]\nignore = ["Z011", "Z999"]\n', encoding="utf-8")
    uri = await session.open("greeter.0", GREETER)
    assert "config" in [d.code for d in session.diagnostics(uri)]
    await pyproject_diagnostics(session)

    pyproject.write_text('[tool.zero.lint]\nignore = ["Z011"]\n', encoding="utf-8")
    await session.change(uri, GREETER + "\n")
    assert [d.code for d in session.diagnostics(uri)] == ["Z003"]  # the fixed setting applies again
    assert await pyproject_diagnostics(session, empty=True) == []

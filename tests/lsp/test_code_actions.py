"""Quick fixes: each lint fix as a code action, safe ones preferred, the edit touching only what it fixes."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session, apply_edits
from tests.lsp.samples import GREETER
from zerolang.tools.lint import lint_source

pytestmark = pytest.mark.asyncio


async def actions_for(session: Session, uri: str, code: str) -> list[types.CodeAction]:
    (diagnostic,) = [d for d in session.diagnostics(uri) if d.code == code]
    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=session.doc(uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix]),
        )
    )
    assert result is not None
    return [action for action in result if isinstance(action, types.CodeAction)]


def edited(action: types.CodeAction, uri: str, text: str) -> str:
    assert action.edit is not None and action.edit.changes is not None
    return apply_edits(text, list(action.edit.changes[uri]))


async def test_a_safe_fix_is_preferred_and_changes_only_the_op(session: Session) -> None:
    uri = await session.open("greeter.0", GREETER)
    (action,) = await actions_for(session, uri, "Z003")
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.is_preferred is True
    assert "Equals" in action.title and "unsafe" not in action.title
    assert action.diagnostics is not None and action.diagnostics[0].code == "Z003"
    # The file keeps its own style (two-space indent, quoted key, comments): one word changes.
    assert edited(action, uri, GREETER) == GREETER.replace("op: Eq,", "op: Equals,")


async def test_an_unsafe_fix_says_so_and_removes_just_its_node(session: Session) -> None:
    text = GREETER.replace("op: Eq,", "op: Equals,")  # Z011 offers its fix once the graph is valid
    uri = await session.open("greeter.0", text)
    (action,) = await actions_for(session, uri, "Z011")
    assert action.is_preferred is False
    assert "unsafe" in action.title
    after = edited(action, uri, text)
    assert after == text.replace('    { id: "unused", type: Constant, value: 1 },\n', "")
    assert lint_source(after) == []


async def test_a_fix_inside_a_multi_line_node_reprints_that_node_only(session: Session) -> None:
    text = GREETER.replace("      type: Constant,\n", "      type: Constant,\n      prefix: 1,\n")
    text = text.replace('{ id: "unused", type: Constant, value: 1 },', "")
    text = text.replace("op: Eq,", "op: StartsWith,").replace(
        '{ id: "same", type: Operation, op: StartsWith, inputs: ["message", "hello"] }',
        '{ id: "same", type: Operation, op: StartsWith, inputs: ["message"], prefix: "/" }',
    )
    uri = await session.open("params.0", text)
    (action,) = await actions_for(session, uri, "Z010")
    after = edited(action, uri, text)
    assert 'params: { prefix: "/" }' in after
    assert after.startswith('# greeter.0\nGraph {\n  "name": "greeter",')  # untouched above
    assert "Z010" not in {f.code for f in lint_source(after)}


async def test_fix_all_applies_every_safe_fix(session: Session) -> None:
    uri = await session.open("greeter.0", GREETER)
    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=session.doc(uri),
            range=types.Range(
                start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
            ),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    assert result is not None
    (action,) = result
    assert isinstance(action, types.CodeAction)
    assert action.kind == "source.fixAll.zero"
    after = edited(action, uri, GREETER)
    assert [f.code for f in lint_source(after)] == ["Z011"]  # the unsafe one is left
    assert "op: Equals" in after

"""Issue 41.1 in the editor: an op given the wrong number of inputs is an error diagnostic (Z021) at
the node's `inputs`, and hover on the op shows what it reads."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp.conftest import Session, position_of
from tests.lsp.test_hover import hover_text

pytestmark = pytest.mark.asyncio

TEXT = """Graph {
    name: "g",
    nodes: [
        { id: "a", type: External, uri: "input://a" },
        { id: "pick", type: Operation, op: If, inputs: ["a"] },
    ],
    outputs: ["pick"],
}
"""


async def test_a_wrong_input_count_is_an_error_at_the_inputs(session: Session) -> None:
    uri = await session.open("counts.0", TEXT)
    (found,) = [d for d in session.diagnostics(uri) if d.code == "Z021"]
    assert found.severity == types.DiagnosticSeverity.Error
    assert "`If` takes 3 inputs (condition, then, else), but it has 1" in found.message
    assert found.range.start == position_of(TEXT, '["a"]')
    shown = await hover_text(session, uri, position_of(TEXT, "If,"))
    assert shown is not None and "If(condition, then, else)" in shown
    await session.change(uri, TEXT.replace('inputs: ["a"]', 'inputs: ["a", "a", "a"]'))
    assert not [d for d in session.diagnostics(uri) if d.code == "Z021"]

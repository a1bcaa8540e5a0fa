"""Shared builders for the archive tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import scratch
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


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A scratch PostgreSQL database for this test session (dropped at the end): see tests/backends.py."""
    with scratch() as url:
        yield url


@pytest.fixture(autouse=True)
def memory_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every archive test's summary index lives in its own memory store, never the user's default."""
    path = tmp_path / "memory.db"
    monkeypatch.setenv("ZERO_MEMORY_DB", str(path))
    monkeypatch.delenv("ZERO_MEMORY_SPACE", raising=False)
    return path

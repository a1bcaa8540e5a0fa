"""Issue 42, point 4: `zero mcp --http` over a memory behind pgbouncer in transaction pooling mode.

The HTTP tests of `test_http.py` run again here, their memory (facts and conversations in one
PostgreSQL database) reached through a real pgbouncer that hands each transaction to the next of
several server connections: whatever session state the server kept between transactions would
meet a connection without it. A token still never reaches another space, a read-only token still
changes nothing, and a revoked token still ends its session.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import zerolang.memory
from tests.backends import scratch
from tests.mcp.test_http import (  # noqa: F401 - collected here again, over the pooled memory
    http,
    test_a_read_only_token_changes_nothing,
    test_a_session_is_its_token_s_alone,
    test_a_token_never_reaches_another_space,
    test_revoking_a_token_ends_its_session,
    test_the_prompts_over_http,
)
from tests.pooler import pgbouncer


@pytest.fixture(scope="module")
def pooled_url() -> Iterator[str]:
    """A scratch database, through pgbouncer."""
    with scratch() as direct:
        if "options=" in direct:
            pytest.skip("pgbouncer passes no startup options: the scratch schema needs a database of its own")
        with pgbouncer(direct) as through:
            yield through


@pytest.fixture
def memory(pooled_url: str, tmp_path: Path) -> Iterator[zerolang.memory.Memory]:
    """The server's memory through the pooler, in a space of this test's own; its conversations in
    the same database (no experience location given)."""
    space = f"agent-{secrets.token_hex(6)}"
    with zerolang.memory.open(pooled_url, space=space, archive=tmp_path / "archive") as opened:
        yield opened

"""The HTTP server's access tokens as the memory keeps them (`zerolang.memory.tokens`, schema step 18):
stored as SHA-256 digests only, each bound to one space, read-only or not, until it expires or is
revoked; on SQLite and PostgreSQL alike, and in a store written before the table existed."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import zerolang.memory
from tests.backends import scratch
from zerolang.memory.tokens import CENTURY, PREFIX, expiry
from zerolang.util.errors import ZeroError

NOW = datetime(2026, 12, 7, 6, 0, tzinfo=UTC)
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "stores"


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgres":
        with scratch() as url:
            yield url
    else:
        yield str(tmp_path / "m.db")


def test_a_token_is_kept_as_its_digest_and_grants_one_space(where: str) -> None:
    with zerolang.memory.open(where, space="alpha") as memory:
        secret, token = memory.create_token("beta", read_only=True, name="ci", expires="30d", now=NOW)
        assert secret.startswith(PREFIX) and len(secret) == len(PREFIX) + 43
        digest = hashlib.sha256(secret.encode()).digest()
        assert token.id == digest.hex()[:12] and token.space == "beta" and token.read_only
        assert token.expires_at == "2027-01-06T06:00:00.000Z"
        grant = memory.token_grant(secret, now=NOW)
        assert grant is not None and (grant.space, grant.read_only, grant.token) == ("beta", True, token.id)
        assert memory.token_grant(secret + "x", now=NOW) is None
        assert memory.token_grant(secret[:-1], now=NOW) is None
        assert memory.token_grant("Bearer " + secret, now=NOW) is None
        # expired at its time, not a millisecond before
        assert memory.token_grant(secret, now=NOW + timedelta(days=30) - timedelta(seconds=1)) is not None
        assert memory.token_grant(secret, now=NOW + timedelta(days=30)) is None
        assert [t.id for t in memory.tokens()] == [token.id]
    if "://" not in where:
        raw = Path(where).read_bytes()
        assert secret.encode() not in raw and secret[len(PREFIX) :].encode() not in raw
        stored = sqlite3.connect(where).execute("SELECT digest FROM access_tokens").fetchall()
        assert stored == [(digest,)]


def test_revoked_by_token_or_id_and_never_again(where: str) -> None:
    with zerolang.memory.open(where, space="alpha") as memory:
        first, one = memory.create_token(now=NOW)
        second, two = memory.create_token(now=NOW)
        assert memory.revoke_token(first, now=NOW).revoked_at == "2026-12-07T06:00:00.000Z"
        again = memory.revoke_token(one.id.upper(), now=NOW + timedelta(hours=1))
        assert again.revoked_at == "2026-12-07T06:00:00.000Z"  # the first revocation stands
        assert memory.token_grant(first, now=NOW) is None
        assert memory.token_grant(second, now=NOW) is not None
        states = {t.id: t.state("2026-12-08T00:00:00.000Z") for t in memory.tokens()}
        assert states == {one.id: "revoked", two.id: "active"}
        for unknown in ("nope", PREFIX + "x" * 43, one.id[:6]):
            with pytest.raises(ZeroError, match="no access token"):
                memory.revoke_token(unknown)


def test_bad_expiries_and_spaces_are_one_line() -> None:
    with zerolang.memory.open(":memory:") as memory:
        for expires, message in (
            ("yesterday", "not a duration"),
            ("0d", "not a duration"),
            ("2020-01-01", "not in the future"),
        ):
            with pytest.raises(ZeroError, match=message):
                memory.create_token(expires=expires, now=NOW)
        with pytest.raises(ZeroError, match="not a space name"):
            memory.create_token("no spaces allowed", now=NOW)
        with pytest.raises(ZeroError, match="printable"):
            memory.create_token(name="a\x1b[31mb", now=NOW)
        assert memory.tokens() == []


@given(amount=st.integers(1, 999_999), unit=st.sampled_from("smhdw"))
def test_a_duration_ends_that_long_after_now(amount: int, unit: str) -> None:
    seconds = amount * {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[unit]
    if seconds > CENTURY:
        with pytest.raises(ZeroError, match="at most a century"):
            expiry(f"{amount}{unit}", NOW)
        return
    ends = expiry(f"{amount}{unit}", NOW)
    assert ends is not None
    assert datetime.fromisoformat(ends.replace("Z", "+00:00")) == NOW + timedelta(seconds=seconds)


def test_a_store_from_before_the_tokens_takes_them(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "main-2026-11-28.db", path)
    with zerolang.memory.open(path, create=False) as memory:
        secret, _ = memory.create_token(now=NOW)
        assert memory.token_grant(secret, now=NOW) is not None

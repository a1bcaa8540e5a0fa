"""Bearer tokens for the memory's HTTP server (`zero mcp --http`; made with `zero mcp token`).

A token is `zmt_` and 43 URL-safe characters (256 random bits), shown once when it is made. The
store keeps its SHA-256 alone (`zerolang.storage.tokens`), with the one space it reaches, whether it
may only read, a name, and when it expires and was revoked. Its `id` (the digest's first 12 hex
digits) names it in `zero mcp token list` and `revoke`; it is not enough to authenticate.

`check` is what the server asks of every request: the `Grant` of a live token (known, not revoked,
not expired), or None.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from zerolang.storage.tokens import TokenRow, TokenStore
from zerolang.util.errors import ZeroError
from zerolang.util.spaces import check_space
from zerolang.util.times import DURATION_UNITS, format_time

PREFIX = "zmt_"
ID_DIGITS = 12
CENTURY = 100 * 366 * 86400  # the longest duration `--expires` takes, in seconds
_DURATION = re.compile(r"([1-9][0-9]{0,5})([smhdw])")
_ID = re.compile(r"[0-9a-f]{12}")


@dataclass(frozen=True, slots=True)
class Token:
    """A token as `zero mcp token list` shows it (never the token itself)."""

    id: str
    name: str
    space: str
    read_only: bool
    created_at: str
    expires_at: str | None
    revoked_at: str | None

    def state(self, now: str) -> str:
        """`revoked`, `expired` or `active` at store time `now`."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"

    def to_json(self, now: str) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "space": self.space,
            "access": "read-only" if self.read_only else "read-write",
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "revoked_at": self.revoked_at,
            "state": self.state(now),
        }


@dataclass(frozen=True, slots=True)
class Grant:
    """What a request presenting a live token may do: reach `space`, and write unless `read_only`."""

    token: str  # the token's id
    space: str
    read_only: bool


def digest_of(secret: str) -> bytes:
    return hashlib.sha256(secret.encode("utf-8", errors="surrogateescape")).digest()


def expiry(text: str | None, now: datetime) -> str | None:
    """When a token made at `now` expires, as the store writes times: `text` is a duration from now
    (`30m`, `12h`, `30d`, `2w`) or an ISO date or time (UTC unless it says otherwise); None: never."""
    if text is None:
        return None
    spelled = text.strip()
    duration = _DURATION.fullmatch(spelled)
    if duration is not None:
        seconds = int(duration[1]) * DURATION_UNITS[duration[2]]
        if seconds > CENTURY:
            raise ZeroError(f"--expires {text!r}: at most a century (omit it: the token never expires)")
        return format_time(now + timedelta(seconds=seconds))
    try:
        moment = datetime.fromisoformat(spelled)
    except ValueError:
        raise ZeroError(
            f"--expires {text!r}: not a duration (30m, 12h, 30d, 2w) or an ISO date (2027-01-31)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if moment <= now:
        raise ZeroError(f"--expires {text!r}: that is not in the future")
    return format_time(moment)


def create(
    store: TokenStore, space: str, *, read_only: bool, name: str, expires: str | None, now: datetime
) -> tuple[str, Token]:
    """A new token for `space`: the token (to show once) and what is kept of it."""
    check_space(space)
    if any(not c.isprintable() for c in name) or len(name) > 200:
        raise ZeroError("--name: at most 200 printable characters")
    secret = PREFIX + secrets.token_urlsafe(32)
    digest = digest_of(secret)
    row = TokenRow(
        digest,
        digest.hex()[:ID_DIGITS],
        name.strip(),
        space,
        read_only,
        format_time(now),
        expiry(expires, now),
        None,
    )
    store.add(row)
    return secret, _token(row)


def listed(store: TokenStore) -> list[Token]:
    return [_token(row) for row in store.rows()]


def revoke(store: TokenStore, token_or_id: str, now: datetime) -> Token:
    """Revoke a token given as itself or by its id; a token revoked before keeps its time."""
    given = token_or_id.strip()
    if given.startswith(PREFIX):
        row = store.find(digest_of(given))
        ident = None if row is None else row.id
    else:
        ident = given.lower() if _ID.fullmatch(given.lower()) else None
    found = None if ident is None else store.revoke(ident, format_time(now))
    if found is None:
        shown = "that token" if given.startswith(PREFIX) else repr(given)
        raise ZeroError(f"no access token {shown} in this memory (zero mcp token list shows their ids)")
    return _token(found)


def check(store: TokenStore, secret: str, now: datetime) -> Grant | None:
    """The grant of `secret` if it is a live token (known, not revoked, not expired), else None."""
    if not secret.startswith(PREFIX) or len(secret) > 200:
        return None
    row = store.find(digest_of(secret))
    if row is None or _token(row).state(format_time(now)) != "active":
        return None
    return Grant(row.id, row.space, row.read_only)


def _token(row: TokenRow) -> Token:
    return Token(row.id, row.name, row.space, row.read_only, row.created_at, row.expires_at, row.revoked_at)

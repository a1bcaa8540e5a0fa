"""The access tokens of the memory's HTTP server, as a store keeps them (schema step 18).

A row holds a token's SHA-256 `digest`, never the token; `TokenStore` is all the rest of the
program sees of the table (`zerolang.storage.registry.tokens_of` opens it on a memory store's
connection; `zerolang.memory.tokens` is what makes, checks and lists tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class TokenRow:
    """One token as stored: its digest and public id, a name, the one space it reaches, whether it
    may only read, and when it was made, expires (None: never) and was revoked (None: not)."""

    digest: bytes
    id: str
    name: str
    space: str
    read_only: bool
    created_at: str
    expires_at: str | None
    revoked_at: str | None


class TokenStore(Protocol):
    """The store's tokens, every space's (the table is the store owner's, not a space's)."""

    def add(self, row: TokenRow) -> None:
        """Keep a new token (its digest and id are new)."""

    def rows(self) -> list[TokenRow]:
        """Every token, oldest first."""

    def find(self, digest: bytes) -> TokenRow | None:
        """The token whose digest this is, if any."""

    def revoke(self, ident: str, at: str) -> TokenRow | None:
        """Mark the token `ident` (its id) revoked at `at`, if it is not already; the row as it now is,
        None where there is no such token."""

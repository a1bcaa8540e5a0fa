"""`TokenStore` in SQL, as both engines speak it: the `access_tokens` table on a memory backend's
connection (`zerolang.storage.tokens`)."""

from __future__ import annotations

from zerolang.storage.errors import translating
from zerolang.storage.sql.core import Row, SqlCore
from zerolang.storage.tokens import TokenRow

_COLUMNS = "digest, id, name, space, read_only, created_at, expires_at, revoked_at"


def _row(row: Row) -> TokenRow:
    digest, ident, name, space, read_only, created, expires, revoked = row
    return TokenRow(bytes(digest), ident, name, space, bool(read_only), created, expires, revoked)


@translating
class SqlTokens:
    """The access tokens of the store `backend` is connected to (every space's)."""

    __slots__ = ("_backend",)

    def __init__(self, backend: SqlCore) -> None:
        self._backend = backend

    def add(self, row: TokenRow) -> None:
        with self._backend.transaction():
            self._backend.run(
                f"INSERT INTO access_tokens ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.digest,
                    row.id,
                    row.name,
                    row.space,
                    int(row.read_only),
                    row.created_at,
                    row.expires_at,
                    row.revoked_at,
                ),
            )

    def rows(self) -> list[TokenRow]:
        found = self._backend.rows(f"SELECT {_COLUMNS} FROM access_tokens ORDER BY created_at, id")
        return [_row(row) for row in found]

    def find(self, digest: bytes) -> TokenRow | None:
        found = self._backend.one(f"SELECT {_COLUMNS} FROM access_tokens WHERE digest = ?", (digest,))
        return None if found is None else _row(found)

    def revoke(self, ident: str, at: str) -> TokenRow | None:
        with self._backend.transaction():
            self._backend.run(
                "UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (at, ident)
            )
            found = self._backend.one(f"SELECT {_COLUMNS} FROM access_tokens WHERE id = ?", (ident,))
        return None if found is None else _row(found)

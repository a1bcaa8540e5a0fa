"""What `Sign` and `Verify` do: the old runtime's digest form, or real Ed25519.

Without a key, `Sign` keeps the old runtime's placeholder (SHA-256 of the
message, then 32 zero bytes) so hashes of existing graphs stay the same, and
`Verify` recomputes that form instead of answering true for anything. With a
key (`zero run --key FILE`), both are real Ed25519. `cryptography` is imported
only when a key is used, so plain runs do not pay for it.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from zerolang.util.errors import RunError, ZeroError
from zerolang.util.files import read_bytes, write_bytes_atomic

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


class Signer(Protocol):
    """Signs and checks the canonical JSON bytes of a value."""

    def sign(self, message: bytes) -> bytes: ...

    def verify(self, message: bytes, signature: bytes, public_key: bytes | None = None) -> bool:
        """True only when `signature` was checked and is valid for `message`."""
        ...


def digest_signature(message: bytes) -> bytes:
    """The old runtime's placeholder signature: sha256(message) followed by 32 zero bytes."""
    return hashlib.sha256(message).digest() + bytes(32)


def ed25519_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Check an Ed25519 signature against a raw 32-byte public key; a bad signature is False.

    A public key that is not a usable point (a small-order point such as the identity, which
    with `R = identity, S = 0` "verifies" every message, or a non-canonical encoding) is a
    `RunError`: no answer from such a key means anything.
    """
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    problem = weak_public_key(public_key)
    if problem is not None:
        raise RunError(f"refused Ed25519 public key {public_key.hex()}: {problem}")
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


# ---- public keys that must not be trusted ---------------------------------------------------
# Edwards25519: -x^2 + y^2 = 1 + d x^2 y^2 over GF(p). A point whose order divides 8 (the
# identity and its seven torsion companions) satisfies [8]P = identity; a signature check
# with such a key can be passed without any private key, so those keys are refused.

_P = 2**255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def weak_public_key(public_key: bytes) -> str | None:
    """Why a 32-byte Ed25519 public key cannot be trusted, or None when it is a proper point."""
    if len(public_key) != 32:
        return "an Ed25519 public key is 32 bytes"
    encoded = int.from_bytes(public_key, "little")
    y, sign = encoded & ((1 << 255) - 1), encoded >> 255
    if y >= _P:
        return "not a canonical encoding (y is not reduced modulo 2^255 - 19)"
    x = _recover_x(y, sign)
    if x is None:
        return "not a point on the curve"
    point = (x, y)
    for _ in range(3):
        point = _double(point)
    if point == (0, 1):
        return "a small-order point (its order divides 8): it would accept forged signatures"
    return None


def _recover_x(y: int, sign: int) -> int | None:
    """x from y and x's sign bit (RFC 8032, 5.1.3), or None when y is not on the curve."""
    u = (y * y - 1) % _P
    v = (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if (v * x * x - u) % _P != 0:
        if (v * x * x + u) % _P != 0:
            return None
        x = x * _SQRT_M1 % _P
    if x == 0 and sign == 1:
        return None
    if x & 1 != sign:
        x = _P - x
    return x


def _double(point: tuple[int, int]) -> tuple[int, int]:
    """[2]P in affine coordinates (the unified addition law of a twisted Edwards curve, a = -1)."""
    x, y = point
    t = _D * x * x * y * y % _P
    x3 = 2 * x * y * pow(1 + t, _P - 2, _P) % _P
    y3 = (y * y + x * x) * pow(1 - t, _P - 2, _P) % _P
    return x3, y3


class DigestSigner:
    """No key: the digest form, checked for real (a public key given to Verify is used as Ed25519).

    The digest form is no signature (anyone can compute it), so `unchecked` counts the
    Verify calls answered that way; `zero run` says so on stderr.
    """

    __slots__ = ("unchecked",)

    def __init__(self) -> None:
        self.unchecked = 0

    def sign(self, message: bytes) -> bytes:
        return digest_signature(message)

    def verify(self, message: bytes, signature: bytes, public_key: bytes | None = None) -> bool:
        if public_key is not None:
            return ed25519_verify(public_key, message, signature)
        self.unchecked += 1
        return hmac.compare_digest(signature, digest_signature(message))


class Ed25519Signer:
    """Real signatures; with only a public key it can verify but not sign."""

    __slots__ = ("_private", "_public", "source")

    def __init__(
        self, private_key: Ed25519PrivateKey | None, public_key: Ed25519PublicKey, source: str = "the key"
    ) -> None:
        self._private = private_key
        self._public = public_key
        self.source = source

    @classmethod
    def generate(cls) -> Ed25519Signer:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        private = Ed25519PrivateKey.generate()
        return cls(private, private.public_key(), "a generated key")

    @classmethod
    def from_key_file(cls, path: str | Path) -> Ed25519Signer:
        """Read a PEM PKCS8 private key, a PEM public key, or 64 hex characters (a raw seed)."""
        from cryptography.exceptions import UnsupportedAlgorithm
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

        where = str(path)
        data = read_bytes(where, "key file")
        text = data.strip()
        if text.startswith(b"-----BEGIN"):
            header = text.split(b"\n", 1)[0]
            if b"PUBLIC KEY" in header:
                try:
                    public = serialization.load_pem_public_key(data)
                except (ValueError, UnsupportedAlgorithm):
                    raise ZeroError(f"{where}: not a readable PEM public key") from None
                if not isinstance(public, Ed25519PublicKey):
                    raise ZeroError(f"{where}: not an Ed25519 key") from None
                raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
                problem = weak_public_key(raw)
                if problem is not None:
                    raise ZeroError(f"{where}: refused Ed25519 public key: {problem}")
                return cls(None, public, where)
            if b"PRIVATE KEY" in header:
                try:
                    private = serialization.load_pem_private_key(data, password=None)
                except TypeError:
                    message = "the private key is encrypted; write it without a passphrase"
                    raise ZeroError(f"{where}: {message}") from None
                except (ValueError, UnsupportedAlgorithm):
                    raise ZeroError(f"{where}: not a readable PEM private key") from None
                if not isinstance(private, Ed25519PrivateKey):
                    raise ZeroError(f"{where}: not an Ed25519 key") from None
                return cls(private, private.public_key(), where)
        elif len(text) == 64:
            try:
                seed = bytes.fromhex(text.decode("ascii"))
            except (UnicodeDecodeError, ValueError):
                pass
            else:
                private = Ed25519PrivateKey.from_private_bytes(seed)
                return cls(private, private.public_key(), where)
        raise ZeroError(
            f"{where}: not an Ed25519 key (expected a PEM private key, a PEM public key or 64 hex characters)"
        )

    @property
    def can_sign(self) -> bool:
        return self._private is not None

    @property
    def public_key_bytes(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    def sign(self, message: bytes) -> bytes:
        if self._private is None:
            raise RunError(f"Sign needs an Ed25519 private key; {self.source} holds only a public key")
        return self._private.sign(message)

    def verify(self, message: bytes, signature: bytes, public_key: bytes | None = None) -> bool:
        if public_key is not None:
            return ed25519_verify(public_key, message, signature)
        from cryptography.exceptions import InvalidSignature

        try:
            self._public.verify(signature, message)
        except InvalidSignature:
            return False
        return True


def generate_key_file(path: str | Path) -> str:
    """Write a new Ed25519 private key as PEM PKCS8 (mode 0600); returns the public key in hex.

    Replaces an existing file (the caller decides whether that is allowed).
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    write_bytes_atomic(path, pem, mode=0o600)
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return public.hex()

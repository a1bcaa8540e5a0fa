"""Issue 15, point 8: small-order Ed25519 public keys are refused; a keyless Verify says on stderr
that no signature was checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tests.hardening.support import graph, zero
from zerolang.runtime.interpreter import run
from zerolang.runtime.signing import DigestSigner, Ed25519Signer, ed25519_verify, weak_public_key
from zerolang.syntax.parser import parse
from zerolang.util.errors import RunError, ZeroError

IDENTITY = (1).to_bytes(32, "little")
FORGED = IDENTITY + bytes(32)  # R = identity, S = 0: "valid" for every message under the identity key
# The eight points of order dividing 8, and non-canonical spellings of them (sign bit set, y >= p).
SMALL_ORDER = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "0000000000000000000000000000000000000000000000000000000000000080",
]
NON_CANONICAL = [
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1
]

VERIFY = graph(
    '{ id: "message", type: External, uri: "input://message" }',
    '{ id: "signature", type: External, uri: "input://signature" }',
    '{ id: "key", type: External, uri: "input://key" }',
    '{ id: "valid", type: Operation, op: Verify, inputs: ["message", "signature", "key"] }',
    outputs='"valid"',
)


@pytest.mark.parametrize("key", SMALL_ORDER)
def test_small_order_keys_are_weak(key: str) -> None:
    assert "small-order" in (weak_public_key(bytes.fromhex(key)) or "")


@pytest.mark.parametrize("key", NON_CANONICAL)
def test_non_canonical_keys_are_weak(key: str) -> None:
    assert weak_public_key(bytes.fromhex(key)) is not None


def test_real_keys_are_not_weak() -> None:
    for _ in range(50):
        public = Ed25519PrivateKey.generate().public_key()
        assert (
            weak_public_key(public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
            is None
        )


def test_the_identity_key_no_longer_verifies_a_forgery() -> None:
    with pytest.raises(RunError, match="small-order point"):
        ed25519_verify(IDENTITY, b"anything at all", FORGED)


@pytest.mark.parametrize("signer", [DigestSigner(), Ed25519Signer.generate()])
def test_verify_refuses_the_identity_key_in_a_run(signer: object) -> None:
    inputs = {"message": "pay 100", "signature": FORGED, "key": IDENTITY.hex()}
    with pytest.raises(RunError, match=r"node `valid` \(Verify\): refused Ed25519 public key"):
        run(parse(VERIFY), inputs, signer=signer)  # type: ignore[arg-type]


def test_a_proper_key_still_answers() -> None:
    signer = Ed25519Signer.generate()
    good = run(parse(VERIFY), {"message": "m", "signature": b"", "key": signer.public_key_bytes.hex()})
    assert good.outputs["valid"] is False


def test_a_public_key_file_holding_a_small_order_point_is_refused(tmp_path: Path) -> None:
    point = Ed25519PublicKey.from_public_bytes(IDENTITY)
    pem = point.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    key_file = tmp_path / "weak.pem"
    key_file.write_bytes(pem)
    with pytest.raises(ZeroError, match="refused Ed25519 public key: a small-order point"):
        Ed25519Signer.from_key_file(key_file)


SIGN_AND_VERIFY = graph(
    '{ id: "message", type: Constant, value: "hi" }',
    '{ id: "signature", type: Operation, op: Sign, inputs: ["message"] }',
    '{ id: "valid", type: Operation, op: Verify, inputs: ["message", "signature"] }',
    outputs='"valid"',
)


def test_keyless_verify_warns_on_stderr(tmp_path: Path) -> None:
    source = tmp_path / "s.0"
    source.write_text(SIGN_AND_VERIFY, encoding="utf-8")
    outcome = zero("run", str(source), "--json")
    assert outcome.code == 0
    assert '"valid": true' in outcome.stdout
    assert outcome.stderr.startswith(
        "warning: signatures were not checked: no --key, so Verify compared 1 signature"
    )


def test_verify_with_a_key_does_not_warn(tmp_path: Path) -> None:
    source = tmp_path / "s.0"
    source.write_text(SIGN_AND_VERIFY, encoding="utf-8")
    key = tmp_path / "k.pem"
    assert zero("keygen", str(key)).code == 0
    outcome = zero("run", str(source), "--key", str(key), "--json")
    assert outcome.code == 0 and outcome.stderr == ""


def test_a_graph_without_verify_does_not_warn(tmp_path: Path) -> None:
    source = tmp_path / "s.0"
    source.write_text(graph('{ id: "a", type: Constant, value: 1 }', outputs='"a"'), encoding="utf-8")
    assert zero("run", str(source)).stderr == ""

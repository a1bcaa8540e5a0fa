"""The SQLite state store and Ed25519 signing, alone and through `run`."""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from zerolang.runtime.interpreter import run
from zerolang.runtime.signing import DigestSigner, Ed25519Signer, digest_signature, generate_key_file
from zerolang.runtime.state import MISSING, MemoryStateStore, decode_value, encode_value
from zerolang.runtime.values import Confidence, Hash, canonical_json, values_equal
from zerolang.storage.sqlite.state import SqliteStateStore
from zerolang.syntax.parser import parse
from zerolang.util.errors import RunError, ZeroError

DIGEST = Hash(hashlib.sha256(b"x").digest())


def graph(nodes: str, outputs: str) -> str:
    return f'Graph {{ name: "t", nodes: [ {nodes} ], outputs: {outputs} }}'


# -- state --------------------------------------------------------------------------------


def test_memory_store() -> None:
    store = MemoryStateStore()
    assert store.load("k") is MISSING
    store.save("k", None)
    assert store.load("k") is None
    assert repr(MISSING) == "MISSING"


def test_sqlite_round_trips_every_variant(tmp_path: Path) -> None:
    value = {
        "hash": DIGEST,
        "bytes": b"\x00\xff",
        "confidence": Confidence(0.25),
        "int": 1,
        "float": 1.0,
        "nonfinite": [math.inf, -math.inf],
        "nested": [{"map": {"bytes": "00"}}, None, True, "s"],  # user maps that look like tags
    }
    with SqliteStateStore(tmp_path / "state.db") as store:
        store.save("k", value)
        loaded = store.load("k")
        assert store.load("other") is MISSING
    assert values_equal(loaded, value)
    assert isinstance(loaded, dict)
    assert type(loaded["hash"]) is Hash
    assert type(loaded["bytes"]) is bytes
    assert type(loaded["confidence"]) is Confidence
    assert type(loaded["float"]) is float
    assert type(loaded["int"]) is int


def test_sqlite_overwrites_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    store = SqliteStateStore(path)
    store.save("k", 1)
    store.save("k", "two")
    assert store.load("k") == "two"
    assert store.keys() == ["k"]
    store.close()
    store.close()  # closing twice is harmless
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(ZeroError, match="closed"):
        store.load("k")


def test_sqlite_persists_across_runs(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    save = graph(
        '{ id: "key", type: Constant, value: "session-7" },'
        '{ id: "text", type: Constant, value: "remember me" },'
        '{ id: "h", type: Operation, op: Hash, inputs: ["text"] },'
        '{ id: "v", type: Operation, op: CreateMap, params: { count: 3 } },'
        '{ id: "v2", type: Operation, op: SetField, inputs: ["v", "h"], field: "digest" },'
        '{ id: "save", type: Operation, op: SaveState, inputs: ["key", "v2"] }',
        '["save"]',
    )
    load = graph(
        '{ id: "key", type: Constant, value: "session-7" },'
        '{ id: "load", type: Operation, op: LoadState, inputs: ["key"] },'
        '{ id: "other", type: Operation, op: LoadState, inputs: ["load.count"] }',
        '["load", "other"]',
    )
    with SqliteStateStore(path) as first:
        saved = run(parse(save), state=first).outputs["save"]
    with SqliteStateStore(path) as second:
        result = run(parse(load), state=second)
    assert result.outputs["load"] == saved
    assert type(result.outputs["load"]["digest"]) is Hash  # type: ignore[index]
    assert result.outputs["other"] == {"session_id": "3", "trust_score": 0.5, "message_count": 0}


def test_sqlite_open_errors_are_one_line(tmp_path: Path) -> None:
    not_a_database = tmp_path / "junk.db"
    not_a_database.write_bytes(b"this is not sqlite" * 100)
    for path in (tmp_path, tmp_path / "missing-dir" / "state.db", not_a_database):
        with pytest.raises(ZeroError) as caught:
            SqliteStateStore(path)
        assert str(path) in caught.value.message
        assert "\n" not in caught.value.message


def test_corrupt_state_is_a_zero_error(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    with SqliteStateStore(path) as store:
        store.save("k", 1)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE zero_state SET value = '{\"nope\": 1}'")
    with SqliteStateStore(path) as store, pytest.raises(ZeroError, match="corrupt"):
        store.load("k")


state_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary()
    | st.binary(min_size=32, max_size=32).map(Hash)
    | st.floats(min_value=0, max_value=1).map(Confidence),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=10,
)


@given(state_values)
def test_state_encoding_round_trips(value: object) -> None:
    assert values_equal(decode_value(encode_value(value)), value)


# -- signing ------------------------------------------------------------------------------


def test_digest_signer() -> None:
    signer = DigestSigner()
    signature = signer.sign(b"m")
    assert signature == hashlib.sha256(b"m").digest() + bytes(32) == digest_signature(b"m")
    assert signer.verify(b"m", signature) is True
    assert signer.verify(b"n", signature) is False
    assert signer.verify(b"m", signature[:32]) is False


def test_generate_key_file_is_private_and_loadable(tmp_path: Path) -> None:
    path = tmp_path / "key.pem"
    public_hex = generate_key_file(path)
    assert len(public_hex) == 64
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    signer = Ed25519Signer.from_key_file(path)
    assert signer.can_sign
    assert signer.public_key_bytes.hex() == public_hex
    signature = signer.sign(b"m")
    assert len(signature) == 64
    assert signer.verify(b"m", signature) is True
    assert signer.verify(b"m2", signature) is False
    assert signer.verify(b"m", digest_signature(b"m")) is False
    # Regenerating replaces the key, and stays 0600 even over a looser file.
    os.chmod(path, 0o644)
    assert generate_key_file(path) != public_hex
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_public_key_file_verifies_but_cannot_sign(tmp_path: Path) -> None:
    private = Ed25519PrivateKey.generate()
    public_path = tmp_path / "public.pem"
    public_path.write_bytes(
        private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    signer = Ed25519Signer.from_key_file(public_path)
    assert not signer.can_sign
    message = canonical_json({"a": 1})
    assert signer.verify(message, private.sign(message)) is True
    with pytest.raises(RunError, match="private key"):
        signer.sign(message)
    source = graph(
        '{ id: "m", type: Constant, value: 1 }, { id: "s", type: Operation, op: Sign, inputs: ["m"] }',
        '["s"]',
    )
    with pytest.raises(RunError) as caught:
        run(parse(source), signer=signer, path="t.0")
    assert caught.value.message.startswith("node `s` (Sign): Sign needs an Ed25519 private key")
    assert caught.value.path == "t.0"


def test_hex_seed_key_file(tmp_path: Path) -> None:
    seed = bytes(range(32))
    path = tmp_path / "seed.txt"
    path.write_text(seed.hex() + "\n")
    signer = Ed25519Signer.from_key_file(path)
    expected = Ed25519PrivateKey.from_private_bytes(seed).sign(b"m")
    assert signer.sign(b"m") == expected  # Ed25519 is deterministic


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_openssl_generated_key(tmp_path: Path) -> None:
    path = tmp_path / "openssl.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(path)], check=True)
    signer = Ed25519Signer.from_key_file(path)
    assert signer.verify(b"m", signer.sign(b"m"))


def _rsa_pem() -> bytes:
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _encrypted_pem() -> bytes:
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret"),
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such key file"),
        (b"", "not an Ed25519 key"),
        (b"hello", "not an Ed25519 key"),
        (b"zz" * 32, "not an Ed25519 key"),
        (
            b"-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n",
            "not a readable PEM private key",
        ),
        (b"-----BEGIN PUBLIC KEY-----\ngarbage\n-----END PUBLIC KEY-----\n", "not a readable PEM public key"),
        (b"-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n", "not an Ed25519 key"),
        (_rsa_pem(), "not an Ed25519 key"),
        (_encrypted_pem(), "encrypted"),
    ],
)
def test_bad_key_files_are_one_line_errors(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "key"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ZeroError) as caught:
        Ed25519Signer.from_key_file(path)
    assert message in caught.value.message
    assert caught.value.message.startswith(str(path))
    assert "\n" not in caught.value.message


def test_key_path_that_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ZeroError, match="is a directory"):
        Ed25519Signer.from_key_file(tmp_path)


def test_sign_and_verify_through_a_run(tmp_path: Path) -> None:
    key = tmp_path / "key.pem"
    generate_key_file(key)
    signer = Ed25519Signer.from_key_file(key)
    source = graph(
        '{ id: "msg", type: External, uri: "input://message" },'
        '{ id: "other", type: Constant, value: "tampered" },'
        '{ id: "sig", type: Operation, op: Sign, inputs: ["msg"] },'
        '{ id: "ok", type: Operation, op: Verify, inputs: ["msg", "sig"] },'
        '{ id: "bad", type: Operation, op: Verify, inputs: ["other", "sig"] }',
        '["sig", "ok", "bad"]',
    )
    keyed = run(parse(source), {"message": "hello"}, signer=signer)
    signature = keyed.outputs["sig"]
    assert isinstance(signature, bytes)
    assert len(signature) == 64
    assert signature != digest_signature(canonical_json("hello"))
    assert keyed.outputs["ok"] is True
    assert keyed.outputs["bad"] is False

    plain = run(parse(source), {"message": "hello"})
    assert plain.outputs["sig"] == digest_signature(b'"hello"')
    assert plain.outputs["ok"] is True
    assert plain.outputs["bad"] is False
    assert signer.verify(canonical_json("hello"), plain.outputs["sig"]) is False

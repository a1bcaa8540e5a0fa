"""Each of the 37 builtins, called directly, with its edge cases (spec §5)."""

from __future__ import annotations

import hashlib

import pytest

from zerolang.runtime.builtins import BUILTINS, RunContext
from zerolang.runtime.catalog import OPS
from zerolang.runtime.signing import DigestSigner, Ed25519Signer
from zerolang.runtime.state import MemoryStateStore
from zerolang.runtime.values import Confidence, Hash, canonical_json
from zerolang.util.errors import RunError


def call(op: str, *inputs: object, ctx: RunContext | None = None, **params: object) -> object:
    return BUILTINS[op](list(inputs), dict(params), ctx if ctx is not None else RunContext())


def test_exactly_the_catalog_ops_in_order() -> None:
    assert tuple(BUILTINS) == OPS
    assert len(BUILTINS) == 40  # the 37 of spec §5 and the 3 memory ops
    for name, builtin in BUILTINS.items():
        assert builtin.__doc__, f"{name} needs a docstring"


# -- strings ------------------------------------------------------------------------------


def test_identity() -> None:
    assert call("Identity", {"a": 1}, 2) == {"a": 1}
    assert call("Identity") is None


def test_starts_with() -> None:
    assert call("StartsWith", "/help me", prefix="/help") is True
    assert call("StartsWith", "help", prefix="/") is False
    assert call("StartsWith", 42, prefix="4") is False  # not a string: ""
    assert call("StartsWith", "anything") is True  # missing prefix is "", which matches


def test_ends_with() -> None:
    assert call("EndsWith", "file.0", suffix=".0") is True
    assert call("EndsWith", "file.0", suffix=".rs") is False
    assert call("EndsWith", None, suffix="") is True


def test_contains() -> None:
    assert call("Contains", "can you help", pattern="you") is True
    assert call("Contains", "hello", pattern="bye") is False
    assert call("Contains", ["you"], pattern="you") is False


def test_extract_first_word() -> None:
    assert call("ExtractFirstWord", "  /cmd arg1  arg2 ") == "/cmd"
    assert call("ExtractFirstWord", "   ") == ""
    assert call("ExtractFirstWord", 5) == ""


def test_extract_params() -> None:
    assert call("ExtractParams", "/cmd a\tb\n c") == ["a", "b", "c"]
    assert call("ExtractParams", "/cmd") == []
    assert call("ExtractParams") == []


def test_concat() -> None:
    assert call("Concat", "a", 1, "b", None, "c") == "abc"  # non-strings skipped
    assert call("Concat", "a", "b", separator=", ") == "a, b"
    assert call("Concat") == ""


def test_split() -> None:
    assert call("Split", "a b  c") == ["a", "b", "", "c"]  # default separator is one space
    assert call("Split", "a,b", separator=",") == ["a", "b"]
    assert call("Split", "", separator=",") == [""]
    assert call("Split", "ab", separator="") == ["", "a", "b", ""]  # as Rust's split("")
    assert call("Split", "", separator="") == ["", ""]
    assert call("Split", 7) == [""]


def test_trim() -> None:
    assert call("Trim", " \t x y \n") == "x y"
    assert call("Trim", None) == ""


def test_to_lower() -> None:
    assert call("ToLower", "HeLLo É") == "hello é"
    assert call("ToLower", 1) == ""


def test_to_upper() -> None:
    assert call("ToUpper", "hello é") == "HELLO É"
    assert call("ToUpper") == ""


def test_length() -> None:
    assert call("Length", "héllo") == 5  # characters, not UTF-8 bytes (Rust would say 6)
    assert call("Length", [1, 2, 3]) == 3
    assert call("Length", {"a": 1}) == 1
    assert call("Length", b"\x00\x01") == 2
    assert call("Length", Hash(bytes(32))) == 0  # a Hash is not Bytes
    assert call("Length", 12345) == 0
    assert call("Length") == 0


# -- maps and arrays ----------------------------------------------------------------------


def test_get_field() -> None:
    assert call("GetField", {"target": "x"}, field="target") == "x"
    assert call("GetField", {"target": "x"}, field="other") is None
    assert call("GetField", "not a map", field="target") is None
    assert call("GetField", {"target": "x"}) is None  # no field param


def test_set_field() -> None:
    original = {"a": 1}
    result = call("SetField", original, 2, field="b")
    assert result == {"a": 1, "b": 2}
    assert original == {"a": 1}  # a copy, never the input
    assert call("SetField", "not a map", 2, field="b") == {"b": 2}
    assert call("SetField", {"a": 1}, field="a") == {"a": 1}  # no second input: untouched
    assert call("SetField", {"a": 1}, None, field="a") == {"a": None}


def test_create_map() -> None:
    assert call("CreateMap", "ignored", a=1, b={"c": [True]}) == {"a": 1, "b": {"c": [True]}}
    assert call("CreateMap") == {}


def test_merge_map() -> None:
    assert call("MergeMap", {"a": 1, "b": 1}, "skip", {"b": 2}, None, {"c": 3}) == {"a": 1, "b": 2, "c": 3}
    assert call("MergeMap") == {}


def test_array_push() -> None:
    original = [1]
    assert call("ArrayPush", original, 2) == [1, 2]
    assert original == [1]
    assert call("ArrayPush", "not an array", 2) == [2]
    assert call("ArrayPush", [1]) == [1]  # nothing to push
    assert call("ArrayPush", [], None) == [None]


def test_array_get() -> None:
    items = ["a", "b", "c"]
    assert call("ArrayGet", items) == "a"  # default index 0
    assert call("ArrayGet", items, index=2) == "c"
    assert call("ArrayGet", items, index=3) is None
    assert call("ArrayGet", items, index=-1) is None  # no Python negative indexing
    assert call("ArrayGet", items, index=1.0) is None
    assert call("ArrayGet", items, index=True) is None
    assert call("ArrayGet", "abc", index=0) is None


# -- arithmetic and comparison ------------------------------------------------------------


def test_add() -> None:
    result = call("Add", 1, 2)
    assert result == 3.0
    assert type(result) is float
    assert call("Add", 1, "2", True, None, 0.5, Confidence(0.25)) == 1.75  # non-numbers skipped
    assert call("Add") == 0.0


def test_multiply() -> None:
    assert call("Multiply", 2, 3.5) == 7.0
    assert type(call("Multiply", 2, 3)) is float
    assert call("Multiply", 4, "x", False) == 4.0
    assert call("Multiply") == 1.0


def test_subtract() -> None:
    assert call("Subtract", 10, 4) == 6.0
    assert call("Subtract", 10) == 10.0
    assert call("Subtract") == 0.0
    assert call("Subtract", "x", 3) == -3.0  # non-numeric first counts as 0


def test_divide() -> None:
    assert call("Divide", 7, 2) == 3.5
    assert call("Divide", 7) == 7.0  # missing divisor is 1
    assert call("Divide", "x", 2) == 0.0
    assert call("Divide", 1, "x") == 1.0  # non-numeric divisor counts as 1
    with pytest.raises(RunError, match="division by zero"):
        call("Divide", 1, 0)
    with pytest.raises(RunError, match="division by zero"):
        call("Divide", 1, 0.0)


def test_equals() -> None:
    assert call("Equals", {"a": [1]}, {"a": [1]}) is True
    assert call("Equals", 1, 1.0) is False  # variant-strict
    assert call("Equals", True, 1) is False
    assert call("Equals") is True  # null == null
    assert call("Equals", None) is True


def test_not_equals() -> None:
    assert call("NotEquals", 1, 1.0) is True
    assert call("NotEquals", "a", "a") is False


def test_greater_than() -> None:
    assert call("GreaterThan", 2, 1.5) is True
    assert call("GreaterThan", 1, 1) is False
    assert call("GreaterThan", Confidence(0.7), 0.5) is True
    assert call("GreaterThan", "9", -1) is True  # non-numbers count as 0


def test_less_than() -> None:
    assert call("LessThan", 1, 2) is True
    assert call("LessThan", 2, 2) is False
    assert call("LessThan", True, 0.5) is True  # a Bool is not a number: 0


# -- logic --------------------------------------------------------------------------------


def test_and() -> None:
    assert call("And", 1, "x", [0]) is True
    assert call("And", 1, "") is False
    assert call("And") is True


def test_or() -> None:
    assert call("Or", 0, "", Confidence(0.1)) is True
    assert call("Or", 0, None, {}) is False
    assert call("Or") is False


def test_not() -> None:
    assert call("Not", 0) is True
    assert call("Not", Hash(bytes(32))) is False
    assert call("Not") is True  # missing is null


def test_if() -> None:
    assert call("If", True, "yes", "no") == "yes"
    assert call("If", 0, "yes", "no") == "no"
    assert call("If", 1) is None
    assert call("If", 0, "yes") is None
    assert call("If") is None


# -- hashing, signing, time ---------------------------------------------------------------


def test_hash() -> None:
    result = call("Hash", "agent")
    assert type(result) is Hash
    # The concept-hash test vector of spec §7.
    assert result.hex() == "d4f0bc5a29de06b510f9aa428f1eedba926012b591fef7a518e776a7c9bd1824"
    expected = hashlib.sha256(b"ab" + b"\x01\x02" + b'{"k":[1,2.0]}' + b"7" + b"0.5").digest()
    assert call("Hash", "ab", b"\x01\x02", {"k": [1, 2.0]}, 7, Confidence(0.5)) == expected
    inner = Hash(hashlib.sha256(b"x").digest())
    # A Hash input is hashed as its JSON (a hex string), not as raw bytes.
    assert call("Hash", inner) == hashlib.sha256(f'"{inner.hex()}"'.encode()).digest()
    assert call("Hash") == hashlib.sha256(b"").digest()


def test_sign_without_a_key_is_the_digest_form() -> None:
    signature = call("Sign", {"m": 1})
    assert type(signature) is bytes
    assert signature == hashlib.sha256(b'{"m":1}').digest() + bytes(32)
    assert call("Sign") == hashlib.sha256(b"null").digest() + bytes(32)


def test_verify_without_a_key_checks_the_digest_form() -> None:
    signature = call("Sign", "message")
    assert isinstance(signature, bytes)
    assert call("Verify", "message", signature) is True
    assert call("Verify", "tampered", signature) is False
    assert call("Verify", "message", signature[:-1] + b"\x01") is False
    assert call("Verify", "message", signature.hex()) is False  # not Bytes: never checked, never true
    assert call("Verify", "message") is False
    assert call("Verify") is False


def test_sign_and_verify_with_a_key() -> None:
    ctx = RunContext(signer=Ed25519Signer.generate())
    signature = call("Sign", {"m": 1}, ctx=ctx)
    assert type(signature) is bytes
    assert len(signature) == 64
    assert signature != call("Sign", {"m": 1})  # not the digest form
    assert call("Verify", {"m": 1}, signature, ctx=ctx) is True
    assert call("Verify", {"m": 2}, signature, ctx=ctx) is False
    digest_form = call("Sign", {"m": 1})
    assert call("Verify", {"m": 1}, digest_form, ctx=ctx) is False


def test_verify_with_a_public_key_input() -> None:
    signer = Ed25519Signer.generate()
    other = Ed25519Signer.generate()
    signature = signer.sign(canonical_json("hi"))
    public = signer.public_key_bytes
    for ctx in (RunContext(), RunContext(signer=other)):
        assert call("Verify", "hi", signature, public, ctx=ctx) is True
        assert call("Verify", "hi", signature, public.hex(), ctx=ctx) is True
        assert call("Verify", "hi", signature, other.public_key_bytes, ctx=ctx) is False
        assert call("Verify", "ho", signature, public, ctx=ctx) is False
    with pytest.raises(RunError, match="public key"):
        call("Verify", "hi", signature, "not a key")
    with pytest.raises(RunError, match="public key"):
        call("Verify", "hi", signature, None)


def test_timestamp_uses_the_clock() -> None:
    ctx = RunContext(clock=lambda: 1_700_000_000.1234)
    assert call("Timestamp", ctx=ctx) == 1_700_000_000_123
    now = call("Timestamp")
    assert type(now) is int
    assert now > 1_600_000_000_000


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        # The old runtime's rules exactly: case-sensitive, on the text as given (no trimming).
        ("hello there", "greeting"),
        ("Hello there", "statement"),
        ("Can you help", "statement"),
        ("well, can you help", "request"),
        ("hey?", "greeting"),  # greeting wins over question
        ("  hey", "statement"),
        ("hi", "greeting"),
        ("his turn", "greeting"),  # a prefix, not a word
        ("What time is it?", "question"),
        ("please stop", "request"),
        ("Please stop", "statement"),
        ("COULD YOU look", "statement"),
        ("could you look", "request"),
        ("The sky is blue", "statement"),
        ("", "statement"),
    ],
)
def test_classify_intent(text: str, intent: str) -> None:
    assert call("ClassifyIntent", text) == intent


def test_classify_intent_of_a_non_string() -> None:
    assert call("ClassifyIntent", 42) == "statement"


# -- state --------------------------------------------------------------------------------


def test_load_state_falls_back_to_the_session_map() -> None:
    result = call("LoadState", "session-1")
    assert result == {"session_id": "session-1", "trust_score": 0.5, "message_count": 0}
    assert isinstance(result, dict)
    assert type(result["trust_score"]) is Confidence
    assert call("LoadState", {"user": 1})["session_id"] == '{"user":1}'  # type: ignore[index]
    assert call("LoadState")["session_id"] == "null"  # type: ignore[index]


def test_save_state_then_load_state() -> None:
    ctx = RunContext(state=MemoryStateStore())
    assert call("SaveState", "k", {"n": 1}, ctx=ctx) == {"n": 1}
    assert call("LoadState", "k", ctx=ctx) == {"n": 1}
    assert call("SaveState", "k", ctx=ctx) is None  # missing value stores null
    assert call("LoadState", "k", ctx=ctx) is None  # a stored null is not "nothing stored"


def test_run_context_defaults() -> None:
    ctx = RunContext()
    assert isinstance(ctx.state, MemoryStateStore)
    assert isinstance(ctx.signer, DigestSigner)


def test_hash_writes_hash_and_bytes_inside_json_as_hex() -> None:
    """docs/differences.md: hex strings here, byte-number arrays in the old runtime."""
    digest = Hash(bytes(range(32)))
    inner = call("Hash", {"h": digest, "b": b"\x01\xff"})
    assert inner == Hash(hashlib.sha256(b'{"b":"01ff","h":"' + digest.hex().encode() + b'"}').digest())
    assert call("Hash", digest) == Hash(hashlib.sha256(b'"' + digest.hex().encode() + b'"').digest())
    assert call("Hash", b"\x01\xff") == Hash(hashlib.sha256(b"\x01\xff").digest())  # Bytes alone: raw

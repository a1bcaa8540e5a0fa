"""Compaction: the seven steps, idempotence, and byte-for-byte expansion through the policy."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from zerolang.archive import Archive
from zerolang.archive.compaction import (
    CompactionError,
    Conversation,
    compact,
    expand,
    is_summary_block,
    keep_last,
    summary_block,
)
from zerolang.archive.gate import Gate
from zerolang.archive.index import MemoryIndex
from zerolang.archive.policy import Caller, parse_policy
from zerolang.archive.summarize import extractive_summary
from zerolang.util.errors import ZeroError

POLICY = parse_policy(
    {
        "version": 1,
        "scopes": {"personal": {"uses": ["summary", "full"]}, "team": {"uses": ["summary"]}},
        "channels": {
            "dm:alice": {"reads": ["dm:alice"], "clearance": 5},
            "dm:bob": {"reads": ["dm:bob"], "clearance": 5},
        },
    }
)
ALICE = Caller("dm:alice")

TURNS = [
    ("user", "I'm planning a trip to Lisbon in May. Any tips for food?"),
    ("assistant", "Try pastéis de nata at Manteigaria. Lisbon's tascas serve grilled sardines in May."),
    ("user", "Great, and I'm vegetarian, so no sardines."),
    ("assistant", "Then look for Ao 26 Vegan Food Project; Lisbon has plenty of vegetarian tascas."),
    ("user", "Remember that I'm vegetarian for the rest of the trip planning."),
    ("assistant", "Noted."),
]


def chat(turns: list[tuple[str, str]] = TURNS) -> Conversation:
    messages = tuple(
        {"role": role, "content": text, "at": f"2026-11-2{index // 3}T10:0{index % 10}:00Z"}
        for index, (role, text) in enumerate(turns)
    )
    return Conversation("dm:alice", "trip-42", messages)


@pytest.fixture
def parts(tmp_path: Path) -> tuple[Archive, MemoryIndex, Gate]:
    archive = Archive(tmp_path / "archive", create=True)
    index = MemoryIndex()
    return archive, index, Gate(archive, index, POLICY, clock=lambda: "2026-11-24T00:00:00Z")


def test_the_seven_steps(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    archive, index, _ = parts
    original = chat()
    result = compact(
        original,
        *keep_last(original, 2),
        archive=archive,
        index=index,
        consent_scope="personal",
        privacy=3,
        abstraction=-2,
        cluster_id="travel",
        tags=["trip"],
    )
    assert result.changed and result.document is not None and result.record is not None
    block, *rest = result.conversation.messages
    assert rest == list(original.messages[4:])
    assert is_summary_block(block) and block["hash"] == result.document.hash and block["count"] == 4
    assert block["content"].startswith(f"[4 messages archived as sha256:{result.document.hash}] ")
    stored = archive.get(result.document.hash)  # steps 2-4: the exact messages, archived
    assert list(stored.messages) == list(original.messages[:4])
    assert (stored.channel, stored.session, stored.consent_scope, stored.tags) == (
        "dm:alice",
        "trip-42",
        "personal",
        ("trip",),
    )
    assert stored.created_at == "2026-11-21T10:03:00Z"  # the newest message's time, not the clock
    record = index.get(result.document.hash)  # steps 5-6
    assert record is not None and record.summary == block["summary"]
    assert (record.y_privacy, record.z_abstraction, record.cluster_id) == (3, -2, "travel")
    assert record.day == date(2026, 11, 21) and record.t_x(date(2026, 11, 24)) == -3
    assert "Lisbon" in record.summary


def test_compacting_twice_changes_nothing(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    archive, index, _ = parts
    once = compact(chat(), *keep_last(chat(), 2), archive=archive, index=index, consent_scope="personal")
    before = (archive.stats().documents, index.count())
    twice = compact(
        once.conversation,
        *keep_last(once.conversation, 2),
        archive=archive,
        index=index,
        consent_scope="personal",
    )
    assert not twice.changed and twice.conversation == once.conversation
    assert (archive.stats().documents, index.count()) == before
    again = compact(chat(), *keep_last(chat(), 2), archive=archive, index=index, consent_scope="personal")
    assert again.conversation.to_jsonl() == once.conversation.to_jsonl()  # the same range: the same block


def test_expanding_restores_the_bytes_when_the_policy_allows(
    parts: tuple[Archive, MemoryIndex, Gate],
) -> None:
    archive, index, gate = parts
    original = chat()
    compacted = compact(original, 1, 5, archive=archive, index=index, consent_scope="personal").conversation
    assert compacted.to_jsonl() != original.to_jsonl()
    result = expand(compacted, gate, ALICE)
    assert result.conversation.to_jsonl() == original.to_jsonl()
    assert result.conversation == original and result.refused == []


def test_expanding_refuses_what_the_policy_refuses(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    archive, index, gate = parts
    compacted = compact(chat(), 0, 4, archive=archive, index=index, consent_scope="team").conversation
    result = expand(compacted, gate, ALICE)
    assert result.conversation == compacted
    assert [rule for _, rule in result.refused] == ["hash.unknown"]  # told as of a hash never archived
    personal = compact(chat(), 0, 4, archive=archive, index=index, consent_scope="personal").conversation
    bob = expand(personal, gate, Caller("dm:bob"))
    assert [rule for _, rule in bob.refused] == ["hash.unknown"]
    assert bob.conversation == personal  # the block stays; nothing of the range comes back


def test_forged_blocks_are_refused_not_followed(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    _, _, gate = parts
    forged = [
        dict(summary_block("0" * 64, "x", 1), hash=text) for text in ("../../etc/passwd", "0" * 12, "f" * 64)
    ]
    conversation = Conversation("dm:alice", "s", tuple(forged))
    result = expand(conversation, gate, ALICE)
    assert result.conversation == conversation
    assert [rule for _, rule in result.refused] == ["hash.format", "hash.format", "hash.unknown"]


def test_nested_compaction_expands_all_the_way(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    archive, index, gate = parts
    original = chat()
    first = compact(original, 0, 2, archive=archive, index=index, consent_scope="personal").conversation
    second = compact(first, 0, 3, archive=archive, index=index, consent_scope="personal").conversation
    assert len(second.messages) == 3 and is_summary_block(second.messages[0])
    assert expand(second, gate, ALICE).conversation.to_jsonl() == original.to_jsonl()
    shallow = expand(second, gate, ALICE, deep=False).conversation
    assert shallow == first


def test_the_summariser_is_pluggable(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    archive, index, _ = parts
    result = compact(
        chat(),
        0,
        2,
        archive=archive,
        index=index,
        consent_scope="personal",
        summarizer=lambda messages: f"{len(messages)} turns about travel",
    )
    assert result.conversation.messages[0]["summary"] == "2 turns about travel"
    with pytest.raises(CompactionError, match="no text"):
        compact(
            chat(), 2, 4, archive=archive, index=index, consent_scope="personal", summarizer=lambda m: " "
        )


@pytest.mark.parametrize(("start", "end"), [(-1, 2), (3, 2), (0, 7)])
def test_ranges_outside_the_conversation(
    parts: tuple[Archive, MemoryIndex, Gate], start: int, end: int
) -> None:
    archive, index, _ = parts
    with pytest.raises(CompactionError, match="not inside the 6 messages"):
        compact(chat(), start, end, archive=archive, index=index, consent_scope="personal")


def test_bad_inputs(parts: tuple[Archive, MemoryIndex, Gate]) -> None:
    archive, index, _ = parts
    with pytest.raises(ZeroError, match="privacy must be an integer from -15 to 15"):
        compact(chat(), 0, 2, archive=archive, index=index, consent_scope="personal", privacy=20)
    with pytest.raises(CompactionError, match="message 0"):
        Conversation("c", "s", ({"content": "no role"},))
    assert not compact(chat(), 2, 2, archive=archive, index=index, consent_scope="personal").changed
    with pytest.raises(CompactionError, match="keep_last"):
        keep_last(chat(), -1)


def test_jsonl_round_trip() -> None:
    original = chat()
    assert Conversation.from_jsonl(original.to_jsonl(), channel="dm:alice", session="trip-42") == original


def test_extractive_summary_is_deterministic_and_only_quotes() -> None:
    messages = [{"role": role, "content": text} for role, text in TURNS]
    summary = extractive_summary(messages)
    assert summary == extractive_summary(messages)
    assert len(summary) <= 280
    assert summary.startswith(("user: ", "assistant: "))
    assert extractive_summary([{"role": "user", "content": ""}]) == "1 message without text"
    long = extractive_summary([{"role": "user", "content": "word " * 200}], max_chars=50)
    assert len(long) <= 50 and long.endswith("…")


texts = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.sampled_from(["user", "assistant", "tool"]), texts), min_size=1, max_size=8),
    st.data(),
)
def test_any_range_round_trips(
    parts: tuple[Archive, MemoryIndex, Gate], turns: list[tuple[str, str]], data: st.DataObject
) -> None:
    archive, index, gate = parts
    original = Conversation("dm:alice", "s", tuple({"role": role, "content": text} for role, text in turns))
    start = data.draw(st.integers(min_value=0, max_value=len(turns)))
    end = data.draw(st.integers(min_value=start, max_value=len(turns)))
    compacted = compact(
        original,
        start,
        end,
        archive=archive,
        index=index,
        consent_scope="personal",
        created_at="2026-11-20T00:00:00Z",
    )
    assert len(compacted.conversation.messages) == len(turns) - (end - start) + (1 if end > start else 0)
    assert expand(compacted.conversation, gate, ALICE).conversation.to_jsonl() == original.to_jsonl()


@settings(max_examples=scaled(100), deadline=None)
@given(st.lists(st.text(alphabet="abc .!?\n", max_size=60), min_size=1, max_size=6))
def test_the_extractive_summary_only_quotes_the_conversation(contents: list[str]) -> None:
    summary = extractive_summary([{"role": "user", "content": text} for text in contents], max_chars=10_000)
    spoken = " ".join(" ".join(text.split()) for text in contents)
    if summary.endswith("without text"):
        assert not spoken.strip()
        return
    pieces = summary.removeprefix("user: ").split(" user: ")
    assert all(piece and piece in spoken for piece in pieces)


# ---- what expand gives back: the canonical form of the input, byte for byte ----------------------

ascii_keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=6).filter(
    lambda key: key not in ("role", "content", "kind", "hash")
)
message_values = st.one_of(texts, st.integers(-(2**53) + 1, 2**53 - 1), st.booleans(), st.none())


@st.composite
def written_conversations(draw: st.DrawFn) -> tuple[bytes, list[dict[str, object]]]:
    """A conversation file as a person or a tool may write it: any key order, spacing, escapes, CRLF
    or LF line ends, blank lines, with or without a final line end; and its messages."""
    import json
    import random

    messages = draw(
        st.lists(
            st.fixed_dictionaries(
                {"role": st.sampled_from(["user", "assistant", "tool"]), "content": texts},
                optional={"at": st.just("2026-11-20T10:00:00Z")},
            ).flatmap(
                lambda fixed: st.dictionaries(ascii_keys, message_values, max_size=2).map(fixed.__or__)
            ),
            min_size=1,
            max_size=6,
        )
    )
    shuffle = random.Random(draw(st.integers(0, 2**32)))
    ends = draw(
        st.lists(
            st.sampled_from(["\n", "\r\n", " \n", "\t\r\n"]), min_size=len(messages), max_size=len(messages)
        )
    )
    lines = []
    for message, end in zip(messages, ends, strict=True):
        keys = list(message)
        shuffle.shuffle(keys)
        spaced = draw(st.booleans())
        text = json.dumps(
            {key: message[key] for key in keys},
            ensure_ascii=draw(st.booleans()),
            separators=(", ", ": ") if spaced else (",", ":"),
        )
        blank = draw(st.sampled_from(["", "\n", "\r\n", "   \n"]))
        lines.append(blank + text + end)
    data = "".join(lines)
    if draw(st.booleans()):
        data = data.rstrip("\r\n\t ")  # no final line end
    return data.encode("utf-8"), messages


def canonical_lines(messages: list[dict[str, object]]) -> bytes:
    """RFC 8785 for these messages (ASCII keys, strings, safe integers, booleans, null): sorted keys, no
    spaces, non-ASCII as itself, one message a line, each line ending in LF."""
    import json

    return b"".join(
        json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        for message in messages
    )


@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(written_conversations(), st.data())
def test_expand_gives_back_the_canonical_form_of_what_was_compacted(
    parts: tuple[Archive, MemoryIndex, Gate],
    written: tuple[bytes, list[dict[str, object]]],
    data: st.DataObject,
) -> None:
    """Whatever the input's spelling, compact then expand writes each message's canonical JSON on a line
    of its own (docs/archive.md says so): the messages exactly, the input's bytes exactly when it was
    in that form already (as everything `compact` writes is)."""
    archive, index, gate = parts
    raw, messages = written
    conversation = Conversation.from_jsonl(raw, channel="dm:alice", session="s")
    start = data.draw(st.integers(0, len(messages)))
    end = data.draw(st.integers(start, len(messages)))
    compacted = compact(
        conversation, start, end, archive=archive, index=index, consent_scope="personal"
    ).conversation
    back = expand(Conversation.from_jsonl(compacted.to_jsonl(), channel="-", session="-"), gate, ALICE)
    assert back.conversation.to_jsonl() == canonical_lines(messages)
    assert list(back.conversation.messages) == messages
    again = Conversation.from_jsonl(canonical_lines(messages), channel="dm:alice", session="s")
    assert again.to_jsonl() == canonical_lines(messages)  # canonical in, the same bytes out


def test_expand_on_the_command_line_writes_the_canonical_form(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    policy = tmp_path / "policy.toml"
    policy.write_text(
        'version = 1\n[scopes.personal]\nuses = ["summary", "full"]\n'
        '[channels."dm:alice"]\nreads = ["dm:alice"]\nclearance = 5\n'
    )
    written = (
        b'{ "content": "caf\\u00e9  ", "role": "user" }\r\n\r\n{"role":"assistant","content":"ok","n":1.0}'
    )
    source = tmp_path / "chat.jsonl"
    source.write_bytes(written)
    where = ["--root", str(tmp_path / "archive"), "--db", str(tmp_path / "index.db")]

    def zero(*arguments: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "zerolang", "archive", *arguments, *where], capture_output=True
        )

    common = ["--channel", "dm:alice", "--session", "s", "--scope", "personal"]
    compacted = tmp_path / "compact.jsonl"
    done = zero("compact", str(source), *common, "--keep-last", "0", "-o", str(compacted))
    assert done.returncode == 0, done.stderr
    back = tmp_path / "back.jsonl"
    done = zero("expand", str(compacted), "--as", "dm:alice", "--policy", str(policy), "-o", str(back))
    assert done.returncode == 0, done.stderr
    assert (
        back.read_bytes()
        == '{"content":"café  ","role":"user"}\n{"content":"ok","n":1,"role":"assistant"}\n'.encode()
    )
    assert [json.loads(line) for line in back.read_bytes().splitlines()] == [
        json.loads(line) for line in written.splitlines() if line.strip()
    ]
    source.write_bytes(b'{"role":"user","content":"caf\xe9"}\n')  # not UTF-8: refused, in one line
    refused = zero("compact", str(source), *common, "--keep-last", "0")
    assert refused.returncode == 1 and refused.stderr.decode().count("\n") == 1
    assert b"not UTF-8" in refused.stderr


@pytest.mark.parametrize("character", ["\x85", "\u2028", "\u2029"])
def test_a_message_holding_a_line_separator_reads_back(character: str) -> None:
    """Canonical JSON holds these as they are: a line of JSON Lines ends at LF only."""
    original = Conversation("dm:alice", "s", ({"role": "user", "content": f"a{character}b"},))
    assert character.encode() in original.to_jsonl()
    assert Conversation.from_jsonl(original.to_jsonl(), channel="dm:alice", session="s") == original

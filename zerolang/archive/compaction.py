"""Compaction (seed 004's seven steps): a conversation range becomes a summary block with a hash.

1. select a range of a conversation (`[start, end)`; `keep_last` picks all but the newest N);
2. make a memory document of it (the messages exactly, the conversation's channel and session);
3. canonicalise and hash it (RFC 8785, SHA-256: `document.py`);
4. store it in the archive under the hash;
5. summarise it (pluggable; default `summarize.extractive_summary`, deterministic and offline);
6. put summary, hash and coordinates in the index;
7. replace the range with one summary block that holds the hash.

A **summary block** is a message: `{"role": "system", "kind": "zero.summary", "hash": ...,
"count": N, "summary": ..., "content": "[N messages archived as sha256:...] summary"}`.

Compaction is idempotent: a range holding no ordinary message (only summary blocks) is left as
it is, so compacting the result again changes nothing; the same range compacted twice gives the
same document, hash and block (the document's `created_at` is the newest message's `at` when
messages carry one). `expand` puts the archived messages back in place of each block the policy
lets the caller read; the conversation's bytes (`to_jsonl`: one canonical JSON message per line)
are then exactly what `to_jsonl` gave before compaction: the input's canonical form, which is
the input's own bytes only when it was written so (docs/archive.md says what changes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from zerolang.archive.archiving import archive_and_index
from zerolang.archive.canonical import canonical_bytes, loads_strict
from zerolang.archive.document import MemoryDocument, make_document, parse_time, utc_now
from zerolang.archive.gate import Gate, Refused
from zerolang.archive.index import IndexRecord, IndexStore, axis
from zerolang.archive.policy import Caller
from zerolang.archive.store import Archive
from zerolang.archive.summarize import Summarizer, extractive_summary
from zerolang.util.errors import ZeroError
from zerolang.util.lines import split_lines

BLOCK_KIND = "zero.summary"


class CompactionError(ZeroError):
    """A range or conversation compaction cannot work on."""


@dataclass(frozen=True, slots=True)
class Conversation:
    """A stored conversation: its channel, its session, and its messages (JSON objects)."""

    channel: str
    session: str
    messages: tuple[dict[str, Any], ...]

    def __post_init__(self) -> None:
        if not self.channel or not self.session:
            raise CompactionError("a conversation needs a channel and a session")
        normalised = []
        for index, message in enumerate(self.messages):
            if not isinstance(message, dict) or not isinstance(message.get("role"), str):
                raise CompactionError(f"message {index}: a message is a JSON object with a role")
            normalised.append(loads_strict(canonical_bytes(message), f"message {index}"))
        object.__setattr__(self, "messages", tuple(normalised))

    def to_jsonl(self) -> bytes:
        """The conversation's bytes: each message's canonical JSON on its own line."""
        return b"".join(canonical_bytes(message) + b"\n" for message in self.messages)

    @classmethod
    def from_jsonl(cls, data: bytes | str, *, channel: str, session: str) -> Conversation:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        # lines as `util.lines` numbers them: a canonical JSON string holds U+2028 and the like as they are
        lines = [(number, line) for number, line in enumerate(split_lines(text), 1) if line.strip(" \t")]
        return cls(channel, session, tuple(loads_strict(line, f"line {number}") for number, line in lines))


def is_summary_block(message: dict[str, Any]) -> bool:
    return message.get("kind") == BLOCK_KIND and isinstance(message.get("hash"), str)


def summary_block(digest: str, summary: str, count: int) -> dict[str, Any]:
    plural = "message" if count == 1 else "messages"
    return {
        "role": "system",
        "kind": BLOCK_KIND,
        "hash": digest,
        "count": count,
        "summary": summary,
        "content": f"[{count} {plural} archived as sha256:{digest}] {summary}",
    }


def keep_last(conversation: Conversation, count: int) -> tuple[int, int]:
    """The range of everything but the newest `count` messages."""
    if count < 0:
        raise CompactionError(f"keep_last must be >= 0, not {count}")
    return 0, max(len(conversation.messages) - count, 0)


@dataclass(frozen=True, slots=True)
class Compacted:
    conversation: Conversation
    changed: bool
    document: MemoryDocument | None = None
    record: IndexRecord | None = None


@dataclass(frozen=True, slots=True)
class Expanded:
    conversation: Conversation
    restored: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (hash, rule)


def compact(
    conversation: Conversation,
    start: int,
    end: int,
    *,
    archive: Archive,
    index: IndexStore,
    consent_scope: str,
    summarizer: Summarizer = extractive_summary,
    privacy: int = 0,
    abstraction: int = 0,
    cluster_id: str | None = None,
    tags: Sequence[str] = (),
    created_at: str | None = None,
) -> Compacted:
    """Archive, index and replace `messages[start:end]` by a summary block (the seven steps)."""
    axis(privacy, "privacy")
    axis(abstraction, "abstraction")
    count = len(conversation.messages)
    if not 0 <= start <= end <= count:
        raise CompactionError(f"the range [{start}, {end}) is not inside the {count} messages")
    selected = conversation.messages[start:end]  # 1. select
    if not any(not is_summary_block(message) for message in selected):
        return Compacted(conversation, changed=False)
    stamp = created_at or _newest_time(selected) or utc_now()
    document = make_document(  # 2. the document; 3. canonical bytes and hash
        list(selected),
        channel=conversation.channel,
        session=conversation.session,
        consent_scope=consent_scope,
        created_at=stamp,
        tags=list(tags),
    )
    summary = summarizer(selected).strip()  # 5. summarise (before writing: an empty one is an error)
    if not summary:
        raise CompactionError("the summariser returned no text")
    record = archive_and_index(  # 4. archive, 6. index (an existing row is kept, with its history)
        archive,
        index,
        document,
        summary=summary,
        privacy=privacy,
        abstraction=abstraction,
        cluster_id=cluster_id,
    ).record
    block = summary_block(document.hash, record.summary, len(selected))  # 7. replace
    messages = (*conversation.messages[:start], block, *conversation.messages[end:])
    return Compacted(
        Conversation(conversation.channel, conversation.session, messages), True, document, record
    )


def expand(conversation: Conversation, gate: Gate, caller: Caller, *, deep: bool = True) -> Expanded:
    """Put archived messages back for every summary block the policy lets `caller` read.

    With `deep`, blocks that come back out of an expansion are expanded too. A refused block
    stays a block; its hash and rule are reported.
    """
    restored: list[str] = []
    refused: list[tuple[str, str]] = []
    messages = list(conversation.messages)
    position = 0
    while position < len(messages):
        message = messages[position]
        if not is_summary_block(message):
            position += 1
            continue
        digest = str(message["hash"])
        try:
            document = gate.get(caller, digest)  # a forged block ("../x", a prefix) is refused here
        except Refused as refusal:
            refused.append((digest, refusal.rule))
            position += 1
            continue
        messages[position : position + 1] = list(document.messages)
        restored.append(document.hash)
        if not deep:
            position += len(document.messages)
    return Expanded(
        Conversation(conversation.channel, conversation.session, tuple(messages)), restored, refused
    )


def _newest_time(messages: Sequence[dict[str, Any]]) -> str | None:
    times = []
    for message in messages:
        stamp = message.get("at")
        if isinstance(stamp, str):
            try:
                times.append((parse_time(stamp, "at"), stamp))
            except ZeroError:
                continue
    return max(times)[1] if times else None

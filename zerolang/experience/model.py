"""The records of experiential memory: messages read from transcripts, turns, experiences, edges."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Layer(StrEnum):
    """Seed 002 part 3: what was heard, what was thought, what was said."""

    INPUT = "input"
    CONTEMPLATION = "contemplation"
    OUTPUT = "output"


class Role(StrEnum):
    """The speaker kinds a transcript message can have, after reading any format."""

    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    SUMMARY = "summary"  # a compaction or branch summary: what the agent remembered of earlier turns
    SYSTEM = "system"


AFFECTS: tuple[str, ...] = ("SEEKING", "RAGE", "FEAR", "LUST", "CARE", "PANIC_GRIEF", "PLAY")
"""Panksepp's seven primary affects, in his order; `PANIC_GRIEF` is his PANIC/GRIEF."""


# `Message`, `Turn` and `Experience` are made once per message of a capture: plain slots dataclasses,
# not frozen ones, whose `__init__` calls `object.__setattr__` per field (~3% of a capture's
# instructions). Nothing changes them once made; `Message` and `Turn` hash as frozen ones did.


@dataclass(slots=True, unsafe_hash=True)
class Message:
    """One message of a transcript, whatever its format, with where it came from.

    `text` is what was said aloud, `thinking` the reasoning blocks, `tool_calls`
    each call rendered as `name(arguments)`. `key` is the format's own id for the
    message (pi `id`, Claude Code `uuid`/message id, OpenAI `id`), if it has one.
    """

    role: Role
    who: str
    text: str = ""
    thinking: str = ""
    tool_calls: tuple[str, ...] = ()
    key: str | None = None
    when: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Session:
    """One conversation read from a transcript file: its identity and its messages in order."""

    id: str
    format: str
    messages: tuple[Message, ...]
    source: str = ""


@dataclass(slots=True, unsafe_hash=True)
class Turn:
    """A conversational turn: a user message and everything the agent did until the next one."""

    id: str
    session: str
    position: int
    key: str
    when: str | None
    messages: tuple[Message, ...]


@dataclass(slots=True)
class Experience:
    """One layer of one message of a turn: who, what, when, which layer, how it felt.

    `id` is the SHA-256 of the record's canonical bytes (`ids.experience_id`), so
    the same experience captured twice is the same record. `sources` are the
    transcript ids of the message(s) it came from.
    """

    id: str
    layer: Layer
    who: str
    what: str
    when: str | None
    session: str
    turn: str
    position: int
    ordinal: int
    affect: dict[str, float] = field(default_factory=dict)
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A captured conversation as a listing shows it: its turns and the times of its first and last
    turn that carry one (None when no turn does)."""

    session: str
    turns: int
    first: str | None
    last: str | None


@dataclass(frozen=True, slots=True)
class Concept:
    """A concept an experience mentions: its normalised label and the memory's ConceptHash of it."""

    id: str
    label: str


class EdgeKind(StrEnum):
    MENTIONS = "mentions"  # experience -> concept
    SIBLING = "sibling"  # experience -> the next experience of the same turn
    NEXT = "next"  # turn -> the turn after it in its session


@dataclass(slots=True)
class Edge:
    """An edge of a capture's batch, named by its ends' ids. Not frozen: a capture makes one per
    concept each experience mentions, and a frozen dataclass's `__init__` (a call of
    `object.__setattr__` per field) took 4% of its instructions; nothing holds or hashes an edge
    once its batch is stored."""

    src: str
    kind: EdgeKind
    dst: str
    weight: float = 1.0


@dataclass(slots=True)
class CaptureBatch:
    """Everything one capture writes, in one transaction."""

    turns: list[Turn] = field(default_factory=list)
    experiences: list[Experience] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    concept_ids: set[str] = field(default_factory=set)  # the ids in `concepts`, to add each once
    # each experience's `words.counted_terms` of its `what`, by id, where built with it (recall's postings)
    terms: dict[str, tuple[dict[str, int], int]] = field(default_factory=dict)
    # each transcript whose cursor changes, and where its capture stopped now (None: forget it)
    cursors: list[tuple[str, str | None]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Added:
    """What a capture added: records that were not in the store before."""

    turns: int = 0
    experiences: int = 0
    concepts: int = 0
    edges: int = 0
    forgotten: int = 0  # experiences left out: they mention a term a purge erased

    def __add__(self, other: Added) -> Added:
        return Added(
            self.turns + other.turns,
            self.experiences + other.experiences,
            self.concepts + other.concepts,
            self.edges + other.edges,
            self.forgotten + other.forgotten,
        )

    def as_dict(self) -> dict[str, int]:
        """What was added (and `forgotten`, when a purge kept something out)."""
        counts = {
            "turns": self.turns,
            "experiences": self.experiences,
            "concepts": self.concepts,
            "edges": self.edges,
        }
        return {**counts, "forgotten": self.forgotten} if self.forgotten else counts


@dataclass(frozen=True, slots=True)
class Posting:
    """One term of recall's full text in one experience (`ExperienceStore.postings`): how often its
    `what` and its `who` say it (`words.index_terms`), and how many words each holds
    (`words.lower_words`, stopwords included)."""

    experience: str
    turn: str
    term: str
    what: int
    who: int
    what_length: int
    who_length: int


@dataclass(frozen=True, slots=True)
class TermTotals:
    """What recall's full text holds in a space: experiences, turns, and the words of every
    experience's `what` and `who` together."""

    experiences: int
    turns: int
    what: int
    who: int

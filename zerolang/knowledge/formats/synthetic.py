"""Deterministic, realistic memory for benchmarks and tests: what an agent learns about a user's work.

Labels are everyday phrases ("postgres database", "Dark Mode"), some
capitalised so concepts collect aliases; predicates come from a few dozen
verbs; confidences have two decimals, a third of them 1. Each input states
the facts of ten subjects in one context, as a chat turn or a tool run would.
"""

from __future__ import annotations

import random

from zerolang.knowledge.formats.model import Snapshot, read_store
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.types import CompilerInput, ContextMeta, SemanticTuple

_QUALIFIERS = (
    "dark",
    "remote",
    "weekly",
    "shared",
    "legacy",
    "primary",
    "local",
    "daily",
    "team",
    "personal",
    "open source",
    "mobile",
    "cloud",
    "python",
    "rust",
    "internal",
    "public",
    "quarterly",
    "test",
    "staging",
    "production",
    "customer",
    "billing",
    "search",
    "voice",
    "offline",
    "secure",
    "fast",
    "main",
    "backup",
)
_NOUNS = (
    "mode",
    "database",
    "meeting",
    "editor",
    "laptop",
    "project",
    "deadline",
    "report",
    "server",
    "api",
    "dashboard",
    "notebook",
    "pipeline",
    "library",
    "framework",
    "calendar",
    "email",
    "budget",
    "team",
    "design",
    "review",
    "release",
    "bug",
    "feature",
    "user",
    "manager",
    "office",
    "city",
    "language",
    "model",
    "agent",
    "memory",
    "cache",
    "queue",
    "cluster",
    "repository",
    "branch",
    "ticket",
    "sprint",
    "roadmap",
    "invoice",
    "contract",
    "client",
    "vendor",
    "account",
    "password",
    "key",
    "token",
    "config",
    "script",
    "test suite",
    "benchmark",
    "document",
    "spreadsheet",
    "slide deck",
    "workshop",
    "conference",
)
_PREDICATES = (
    "uses",
    "prefers",
    "depends_on",
    "is_part_of",
    "works_on",
    "owns",
    "runs_on",
    "located_in",
    "created_by",
    "mentions",
    "replaces",
    "blocks",
    "supports",
    "reviews",
    "schedules",
    "stores",
    "reads",
    "writes",
    "deploys_to",
    "reports_to",
    "likes",
    "avoids",
    "needs",
    "belongs_to",
    "is_a",
    "improves",
    "tracks",
)
_SOURCES = ("user_prompt", "tool_output", "observation", "chat")


def labels(count: int, rng: random.Random) -> list[str]:
    """`count` distinct labels, numbered past the phrase space (as real ids and versions are)."""
    phrases = [f"{q} {n}" for q in _QUALIFIERS for n in _NOUNS] + list(_NOUNS)
    rng.shuffle(phrases)
    result = phrases[:count]
    serial = 2
    while len(result) < count:
        result.extend(f"{phrase} {serial}" for phrase in phrases[: count - len(result)])
        serial += 1
    return result


def inputs(concepts: int, relations_per_concept: int = 3, seed: int = 7) -> list[CompilerInput]:
    """Compiler inputs stating `relations_per_concept` facts about each of `concepts` subjects."""
    rng = random.Random(seed)
    names = labels(concepts, rng)
    written = [name.title() if rng.random() < 0.2 else name for name in names]
    result = []
    for start in range(0, concepts, 10):
        tuples = []
        for subject in range(start, min(start + 10, concepts)):
            for verb in rng.sample(_PREDICATES, relations_per_concept):
                obj = rng.randrange(concepts - 1)
                obj += obj >= subject
                level = 1.0 if rng.random() < 0.33 else round(rng.uniform(0.5, 0.99), 2)
                tuples.append(SemanticTuple(written[subject], verb, written[obj], level))
        day, minute = divmod(start // 10, 24 * 60)
        context = ContextMeta(
            event_time=f"2026-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T{_clock(minute * 60)}Z",
            source=rng.choice(_SOURCES),
            scope=f"project-{rng.randrange(20)}",
            session_id=f"session-{start // 50}",
        )
        result.append(CompilerInput(tuple(tuples), context))
    return result


def fill(memory: MemoryStore, concepts: int, relations_per_concept: int = 3, seed: int = 7) -> MemoryStore:
    """`memory` (an empty store) holding `inputs(...)`, one ingest second apart."""
    from zerolang.knowledge.compiler import compile_record

    records = [
        compile_record(item, now=f"2026-11-20T{_clock(index)}.000Z")
        for index, item in enumerate(inputs(concepts, relations_per_concept, seed))
    ]
    memory.insert_records(records)
    return memory


def snapshot(memory: MemoryStore, concepts: int, relations_per_concept: int = 3, seed: int = 7) -> Snapshot:
    """`fill(memory, ...)` read back, and `memory` closed: the benchmark's memory."""
    with fill(memory, concepts, relations_per_concept, seed):
        return read_store(memory)


def _clock(seconds: int) -> str:
    """`HH:MM:SS` of a second count within a day."""
    return f"{seconds // 3600 % 24:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

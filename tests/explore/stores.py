"""The stores the explorer's tests look at: a small memory with history, entities an MCP client made,
hostile labels, experiences (a Claude Code conversation with its summary, pi sessions, a hostile
turn) and an archive (built through the Python API and the MCP graph, as a user's would be)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import zerolang.memory
from zerolang.experience.capture import TurnRecorder
from zerolang.mcp.graph import KnowledgeGraph

ROOT = Path(__file__).resolve().parents[2]
POLICY = ROOT / "examples" / "archive" / "policy.toml"
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"

# What a hostile label would do if it ran: set window.__pwned (a label's `_` and `.` normalise to `-`,
# so the labels set window['--pwned'] instead; sources, scopes and transcripts keep every character).
HOSTILE_LABELS = ("<img src=x onerror=window['--pwned']=1>", "<script>window['--pwned']=1</script>")
# The store times the demo's inputs are learned at, in order (each input of each example file, then
# the two `remember`s).
CLAUDE_TITLE = "Fixing the flaky login test in the billing service"  # claude_code.jsonl's summary
LEARNED = tuple(f"2024-01-{day:02d}T09:30:00.000Z" for day in range(2, 31, 2))
HOSTILE_TEXT = "<script>window.__pwned=1</script><img src=x onerror=window.__pwned=1>\"'\x1b[31m"


@dataclass(frozen=True, slots=True)
class Demo:
    db: Path
    experiences: Path
    archive: Path


def make_demo(folder: Path, *, hostile: bool = True) -> Demo:
    """A memory at `folder/memory.db`: Alice's moves (lives_in single-valued, one fact retracted),
    Melissa and Bob, hostile labels; experiences beside it; an archive with two documents."""
    db, archive = folder / "memory.db", folder / "archive"
    with zerolang.memory.open(db, archive=archive) as memory:
        memory.declare_single_valued(["lives in"], now="2019-01-01T00:00:00Z")
        # each input learned at a store time of its own, over weeks: the timeline's store lane shows when
        learned = iter(LEARNED)
        for name in ("moves.json", "melissa.json", "bob.json"):
            inputs = json.loads((ROOT / "examples" / "memory" / name).read_text(encoding="utf-8"))
            for item in inputs if isinstance(inputs, list) else [inputs]:
                memory.ingest(item, now=next(learned))
        memory.remember(
            [("Alice", "likes", "coffee", 0.7)], event_time="2023-05-01T00:00:00Z", now=next(learned)
        )
        memory.remember(
            [("Paris", "is in", "France"), ("France", "is in", "Europe")], source="atlas", now=next(learned)
        )
        memory.retract("alice|likes|coffee", valid_to="2024-01-01T00:00:00Z", now="2024-03-01T00:00:00Z")
        if hostile:
            memory.remember(
                [(HOSTILE_LABELS[0], "likes", HOSTILE_LABELS[1]), (HOSTILE_LABELS[0], "knows", "Alice")],
                source=HOSTILE_TEXT,
                scope=HOSTILE_TEXT,
                event_time="2024-03-01T00:00:00Z",
                now="2024-03-05T00:00:00.000Z",
            )
        graph = KnowledgeGraph(memory)  # what an MCP client's create_entities / create_relations store
        graph.create_entities(
            [
                {"name": "Carol", "entityType": "person", "observations": ["works on the billing service"]},
                {"name": "Initech", "entityType": "organization", "observations": []},
            ]
        )
        graph.create_relations([{"from": "Carol", "to": "Initech", "relationType": "works at"}])
        memory.capture_files([*sorted(TRANSCRIPTS.glob("pi_*.jsonl")), TRANSCRIPTS / "claude_code.jsonl"])
        recorder = TurnRecorder(memory.experiences, session="hostile")
        recorder.record(user_said=HOSTILE_TEXT if hostile else "hello", agent_said="I am glad and grateful.")
        memory.archive_document(
            [{"role": "user", "content": "My sister's birthday is 3 March."}],
            channel="dm:alice",
            consent_scope="personal",
            summary="the sister's birthday, 3 March",
            privacy=6,
        )
        memory.archive_document(
            [{"role": "user", "content": "The release moves to Thursday."}],
            channel="slack:team",
            consent_scope="team",
            summary="the release moves to Thursday",
        )
        experiences = Path(str(memory.stores.experiences))
    return Demo(db, experiences, archive)

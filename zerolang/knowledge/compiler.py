"""CompilerInput -> (.0 graph AST, MemoryRecord).

The record is computed in Python (normalise, resolve aliases, hash); the graph
recomputes the same hashes with runtime builtins, so running it with
`zero run` proves the record. The graph has the shape of
`examples/example_memory.0` (see `schema/compatibility.md`):

- per concept, a `Constant` holding the normalised label and a `Hash` of it;
- per relation, a `Constant` record, a `Concat` of `subject|predicate|object`,
  its `Hash` (the FactHash) and a `SetField` adding it as `fact_hash`;
- the context `Constant`, a `Concat` of `event_time|source|scope` and its `Hash`;
- a proof placeholder;
- ONE output, `memory_record`: a map built by `SetField` chains, each part
  under its own key. Never a flat `MergeMap` (colliding keys would be lost,
  non-maps dropped) and never `Aggregate` (no runtime has it).

Only `Constant` and `Operation` nodes are used. The EpisodeHash cannot be
computed in a graph (the `Hash` op hashes a Hash as JSON text, not its raw
bytes), so each relation carries it as a hex constant `episode_hash`.

The graph is an AST printed by `zerolang.syntax.printer`: no `.0` text is ever
concatenated, so any label (quotes, backslashes, newlines, `#`, braces,
any Unicode) round-trips, and timestamps keep their colons.
"""

from __future__ import annotations

import gc
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from hashlib import sha256 as _sha256

from zerolang.knowledge.hashing import SEPARATOR, concept_hash, context_hash
from zerolang.knowledge.normalize import AliasTable, normalize_predicate, written_form
from zerolang.knowledge.types import (
    CompilerInput,
    ConceptHash,
    ContextNode,
    EpisodeHash,
    FactHash,
    MemoryRecord,
    require_type,
    trusted_concept,
    trusted_record,
    trusted_relation,
)
from zerolang.syntax.ast import Array, Comment, Entry, Graph, Node, String, Value, from_python
from zerolang.util.times import utc_now

GRAPH_NAME = "memory_record"
SCHEMA_VERSION = "0.2.0"
OUTPUT = "memory_record"
HEADER = [
    " Compiled by zerolang.memory (`zero memory compile`): one 0-memory record.",
    " Run it with `zero run FILE --json`: `memory_record` recomputes every concept hash,",
    " fact hash and the context hash. `episode_hash` = sha256(fact_hash ++ context_hash)",
    " is a constant: no builtin hashes raw digests (schema/compatibility.md, gotcha 9).",
]


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a bulk step, as it was afterwards.

    Compiled records hold no reference cycles, but each full collection walks
    every live object: over an ingest that keeps its records (or a bench that
    keeps 100K) those walks made compiling 35% slower at 100K relations than at
    10K. Reference counting frees everything as usual meanwhile.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def compile_records(
    sources: Iterable[CompilerInput], aliases: AliasTable | None = None, *, now: str | None = None
) -> list[MemoryRecord]:
    """The records of many inputs, all with one time (`now`, default: when called), as `ingest` does."""
    table = aliases if aliases is not None else AliasTable.default()
    stamp = now if now is not None else utc_now()
    with gc_paused():
        return [compile_record(source, table, now=stamp) for source in sources]


@lru_cache(maxsize=65536)
def _concept_hash(label: str) -> ConceptHash:
    """Concepts recur across records; hashing each label once is a measurable ingest win."""
    return concept_hash(label)


@lru_cache(maxsize=4096)
def _predicate(raw: str) -> str:
    """Predicates recur even more than labels (a few dozen verbs)."""
    return normalize_predicate(raw)


class _Concept:
    """One concept of the record being compiled: its label, hash, highest confidence and spellings."""

    __slots__ = ("aliases", "confidence", "hash", "label")

    def __init__(self, label: str, key: ConceptHash, confidence: float) -> None:
        self.label = label
        self.hash = key
        self.confidence = confidence
        self.aliases: list[str] = []

    def saw(self, raw: str, confidence: float) -> None:
        written = written_form(raw)
        if written != self.label and written not in self.aliases:
            self.aliases.append(written)
        if confidence > self.confidence:
            self.confidence = confidence


def compile_record(
    source: CompilerInput, aliases: AliasTable | None = None, *, now: str | None = None
) -> MemoryRecord:
    """The MemoryRecord of one input, without building the graph (what ingest needs).

    Concepts are deduplicated by normalised, alias-resolved label, keeping the
    spellings as aliases and the highest confidence. A fact stated twice in one
    input is one observation in one context: it is kept once, with the higher
    confidence (repeating a statement is not new evidence).

    The hot path of ingest: the hashes are computed here from the validated
    input (the same bytes `hashing` hashes) and the nodes are built without
    re-checking what was just made.
    """
    require_type(source, CompilerInput, "the compiler input")
    table = aliases if aliases is not None else AliasTable.default()
    stamp = now if now is not None else utc_now()
    context = ContextNode(context_hash(source.context), source.context)
    context_digest = context.hash.digest
    concepts: dict[str, _Concept] = {}
    facts: dict[bytes, tuple[_Concept, str, _Concept, float]] = {}
    resolve = table.resolve
    for item in source.tuples:
        weight = item.confidence
        ends = []
        for raw in (item.subject, item.object):
            label = resolve(raw)
            concept = concepts.get(label)
            if concept is None:
                concept = concepts[label] = _Concept(label, _concept_hash(label), weight)
            concept.saw(raw, weight)
            ends.append(concept)
        subject, obj = ends
        predicate = _predicate(item.predicate)
        key = _sha256(f"{subject.label}{SEPARATOR}{predicate}{SEPARATOR}{obj.label}".encode()).digest()
        previous = facts.get(key)
        confidence = item.confidence if previous is None or previous[3] < item.confidence else previous[3]
        facts[key] = (subject, predicate, obj, confidence)
    nodes = tuple(
        trusted_concept(c.hash, c.label, tuple(c.aliases), c.confidence, stamp, stamp)
        for c in concepts.values()
    )
    relations = tuple(
        trusted_relation(
            FactHash.from_digest(key),
            EpisodeHash.from_digest(_sha256(key + context_digest).digest()),
            subject.hash,
            predicate,
            obj.hash,
            confidence,
            context.hash,
            stamp,
        )
        for key, (subject, predicate, obj, confidence) in facts.items()
    )
    return trusted_record(nodes, relations, context)


def compile_input(
    source: CompilerInput, aliases: AliasTable | None = None, *, now: str | None = None
) -> tuple[Graph, MemoryRecord]:
    """The graph and the record of one input."""
    record = compile_record(source, aliases, now=now)
    return build_graph(record, utterance=source.utterance), record


# ---- the graph ------------------------------------------------------------------------------


class _Ids:
    """Node ids: readable (`concept_agent`), unique, and never containing `.` (a field reference)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def take(self, base: str, suffixes: Iterable[str] = ("",)) -> str:
        wanted = tuple(suffixes)
        candidate, number = base, 2
        while any(candidate + suffix in self.used for suffix in wanted):
            candidate, number = f"{base}_{number}", number + 1
        self.used.update(candidate + suffix for suffix in wanted)
        return candidate


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str, fallback: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_SLUG.sub("_", ascii_text.lower()).strip("_")[:40].rstrip("_")
    return slug or fallback


def _node(node_id: str, kind: str, **fields: object) -> Node:
    entries = [Entry(key="id", value=String(node_id)), Entry(key="type", value=String(kind))]
    entries.extend(Entry(key=key, value=from_python(value)) for key, value in fields.items())
    return Node(entries=entries)


def _constant(node_id: str, value: object) -> Node:
    return _node(node_id, "Constant", value=value)


def _operation(node_id: str, op: str, inputs: list[str], params: dict[str, object] | None = None) -> Node:
    if params is None:
        return _node(node_id, "Operation", op=op, inputs=inputs)
    return _node(node_id, "Operation", op=op, inputs=inputs, params=params)


def _set_chain(ids: _Ids, start: str, parts: list[tuple[str, str]], last: str) -> list[Node]:
    """SetField links from `start`, adding each (key, node) in turn; the final link is `last`."""
    nodes: list[Node] = []
    previous = start
    for index, (key, source) in enumerate(parts):
        node_id = last if index == len(parts) - 1 else ids.take(f"{last}_{index + 1}")
        nodes.append(_operation(node_id, "SetField", [previous, source], {"field": key}))
        previous = node_id
    return nodes


def build_graph(record: MemoryRecord, *, utterance: str | None = None) -> Graph:
    """The `.0` graph of a record (see the module docstring for its shape)."""
    ids = _Ids()
    for fixed in ("empty_map", "concepts", "relations", "context", "context_text", "context_hash"):
        ids.take(fixed)
    for fixed in ("proof", "record_header", OUTPUT):
        ids.take(fixed)
    nodes: list[Node] = []

    concept_ids: dict[ConceptHash, str] = {}
    concept_parts: list[tuple[str, str]] = []
    for concept in record.concepts:
        base = ids.take(f"concept_{_slug(concept.label, 'label')}", ("", "_hash"))
        concept_ids[concept.hash] = base + "_hash"
        nodes.append(_constant(base, concept.label))
        nodes.append(_operation(base + "_hash", "Hash", [base]))
        concept_parts.append((concept.label, base + "_hash"))
    nodes.append(_constant("empty_map", {}))
    nodes.extend(_set_chain(ids, "empty_map", concept_parts, "concepts"))

    labels = {concept.hash: concept.label for concept in record.concepts}
    relation_parts: list[tuple[str, str]] = []
    for relation in record.relations:
        subject, obj = labels[relation.subject_hash], labels[relation.object_hash]
        name = f"{subject}|{relation.predicate}|{obj}"
        base = ids.take(f"rel_{_slug(f'{subject} {relation.predicate} {obj}', 'fact')}", _RELATION_SUFFIXES)
        value = {
            "subject": subject,
            "predicate": relation.predicate,
            "object": obj,
            "subject_hash_ref": concept_ids[relation.subject_hash],
            "object_hash_ref": concept_ids[relation.object_hash],
            "confidence": float(relation.confidence),
            "episode_hash": relation.episode_hash.hex(),
        }
        fields = [f"{base}.subject", f"{base}.predicate", f"{base}.object"]
        nodes.append(_constant(base, value))
        nodes.append(_operation(base + "_text", "Concat", fields, {"separator": "|"}))
        nodes.append(_operation(base + "_hash", "Hash", [base + "_text"]))
        nodes.append(_operation(base + "_record", "SetField", [base, base + "_hash"], {"field": "fact_hash"}))
        relation_parts.append((name, base + "_record"))
    nodes.extend(_set_chain(ids, "empty_map", relation_parts, "relations"))

    context_fields = ["context.event_time", "context.source", "context.scope"]
    nodes.append(_constant("context", record.context.meta.to_json()))
    nodes.append(_operation("context_text", "Concat", context_fields, {"separator": "|"}))
    nodes.append(_operation("context_hash", "Hash", ["context_text"]))
    proof = {"status": "unsigned", "trace_hash": None, "signer": None, "signature": None}
    nodes.append(_constant("proof", proof))
    nodes.append(_constant("record_header", {"kind": "memory_record", "schema_version": SCHEMA_VERSION}))
    record_parts = [(part, part) for part in ("concepts", "relations", "context", "context_hash", "proof")]
    nodes.extend(_set_chain(ids, "record_header", record_parts, OUTPUT))
    return _graph(record, nodes, utterance)


_RELATION_SUFFIXES = ("", "_text", "_hash", "_record")


def _graph(record: MemoryRecord, nodes: list[Node], utterance: str | None) -> Graph:
    metadata: dict[str, object] = {
        "format": "0-memory",
        "schema": "schema/schema.0",
        "schema_version": SCHEMA_VERSION,
    }
    if utterance is not None:
        metadata["utterance"] = utterance
    description = (
        f"A 0-memory record: {_count(len(record.concepts), 'concept')},"
        f" {_count(len(record.relations), 'relation')}, one context, a proof placeholder."
    )
    entries = [
        Entry(key="name", value=String(GRAPH_NAME)),
        Entry(key="version", value=from_python(1)),
        Entry(key="description", value=String(description)),
        Entry(key="metadata", value=from_python(metadata)),
        Entry(key="nodes", value=Array(items=list[Value](nodes)), blank_before=True),
        Entry(key="outputs", value=from_python([OUTPUT])),
    ]
    return Graph(entries, leading=[Comment(line) for line in HEADER])


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"

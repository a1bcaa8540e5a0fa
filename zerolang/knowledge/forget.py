"""Forgetting: tombstones, restore and purge.

A forget is a recorded event, a *tombstone*, named by its hash:

    tombstone = sha256("0M-tombstone\\n" ++ canonical JSON {kind, target, at})

It selects episodes (every episode of a concept's facts, of one fact, of the
contexts with a source, a scope, an event time in a range, or of a whole
space), removes them and whatever only they held up (facts without episodes,
concepts without facts, contexts without episodes), and blocks their return:
a concept forget blocks the concept's hash, a fact forget the fact's hash,
the others the episodes' hashes. Ingest, import, deltas and received
bundles skip blocked relations until `restore` lifts the tombstone, which
also puts back what it removed (kept in the tombstone's payload). `purge`
erases the target and the payload, keeping the hash and the blocked keys
(hashes, not labels), forgets whatever else in the space mentions the
forgotten terms and blocks them (`zerolang.knowledge.mentions`), then has the
backend erase freed storage.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from zerolang.knowledge import scope
from zerolang.knowledge.backend import Redaction, Removed, TombstoneRow
from zerolang.knowledge.hashing import fact_hash
from zerolang.knowledge.mentions import erase_terms
from zerolang.knowledge.normalize import AliasTable, normalize_predicate
from zerolang.knowledge.store import MemoryStore
from zerolang.knowledge.terms import Forgotten, as_blocked, strings, term_keys
from zerolang.knowledge.types import (
    HEX_DIGEST,
    ConceptNode,
    ContextHash,
    ContextMeta,
    ContextNode,
    FactHash,
    MemoryRecord,
    RelationNode,
)
from zerolang.util.errors import ZeroError

KINDS = ("concept", "fact", "source", "scope", "time", "space")
_DOMAIN = b"0M-tombstone\n"


@dataclass(frozen=True, slots=True)
class Selector:
    """What to forget: `kind` (one of `KINDS`) and its target.

    concept: a label or hash; fact: `subject|predicate|object` or a fact hash;
    source, scope: the context field; time: `FROM..TO` event times (either
    end may be empty, TO excluded); space: the space's name.
    """

    kind: str
    target: str

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ZeroError(f"cannot forget a {self.kind!r}: one of {', '.join(KINDS)}")


@dataclass(frozen=True, slots=True)
class ForgetReport:
    tombstone: str
    kind: str
    target: str
    removed: Removed
    blocked: int
    purged: bool
    # what captured experiences and conversations must no longer show (zerolang.experience.forgotten):
    # labels and aliases, kept in this report only (the experience store keeps their hashes)
    terms: tuple[str, ...] = ()
    redacted: int = 0  # contexts that named a forgotten term, kept without the mention
    labels: tuple[str, ...] = ()  # the concepts it removed (or would: a preview), by label
    dry_run: bool = False  # a preview: nothing was written
    # a preview's count, by store, of what mentions the forgotten terms beside the memory's facts
    # (experiences, conversations; a purge's archive and summaries: `zerolang.memory.holders`)
    elsewhere: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "tombstone": self.tombstone,
            "kind": self.kind,
            "target": self.target,
            "removed": self.removed.to_json(),
            "redacted": self.redacted,
            "blocked": self.blocked,
            "purged": self.purged,
        }
        if self.dry_run:
            document["dry_run"] = True
            document["labels"] = list(self.labels)
            document["elsewhere"] = dict(self.elsewhere)
        return document


@dataclass(frozen=True, slots=True)
class Plan:
    """What a forget does, computed without writing: `forget` applies it, a preview reports it, so the
    two cannot disagree. `removed` is what it takes out of the live tables (as the backend counts
    it), `labels` the concepts that go, `redactions` the contexts kept without the mention."""

    kind: str
    target: str
    tombstone: bytes
    purge: bool
    episodes: tuple[bytes, ...]
    blocked: tuple[tuple[bytes, str], ...]
    redactions: tuple[Redaction, ...]
    terms: tuple[str, ...]
    removed: Removed
    labels: tuple[str, ...]
    payload: str | None
    content: dict[str, object]  # what it takes, as restore would put it back (`_payload`)

    def report(self, removed: Removed | None = None, *, dry_run: bool = False) -> ForgetReport:
        return ForgetReport(
            self.tombstone.hex(),
            self.kind,
            self.target,
            self.removed if removed is None else removed,
            len(self.blocked),
            self.purge,
            self.terms,
            len(self.redactions),
            self.labels,
            dry_run,
        )


def _blocks_first(store: MemoryStore, experiences: str | Path | None) -> bool:
    """Whether the experience store at `experiences` can take a forget's block inside the forget's
    transaction (`forget(inside=)`): not when it is the memory's own SQLite file, where one writer
    at a time means the block waits for the forget to commit."""
    if experiences is None:
        return True
    import os

    from zerolang.util.locations import parse_location

    mine, theirs = parse_location(store.backend.location), parse_location(experiences)
    if not (mine.is_file and theirs.is_file):
        return True
    try:
        return not os.path.samefile(mine.path, theirs.path)
    except OSError:  # one of them is not there (yet): not the same file
        return True


def tombstone_hash(kind: str, target: str, at: str) -> bytes:
    text = json.dumps({"at": at, "kind": kind, "target": target}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(_DOMAIN + text.encode()).digest()


def plan(
    store: MemoryStore,
    selector: Selector,
    *,
    at: str,
    purge: bool = False,
    aliases: AliasTable | None = None,
    searched: Mapping[str, int] | None = None,
) -> Plan:
    """What forgetting `selector` at store time `at` takes, blocks and redacts; nothing is written.

    A concept forget (and any purge) takes every fact a forgotten term takes part in and redacts
    the contexts that only name one (`zerolang.knowledge.scope`); a purge also blocks the terms.
    ZeroError if `selector` names nothing stored. `searched`: as `forget` takes it."""
    target, episodes, blocked = _select(store, selector, aliases, searched)
    key = tombstone_hash(selector.kind, target, at)
    where = scope.episodes(store)
    terms = _planned_terms(store, selector.kind, target, episodes, blocked, aliases, where)
    redactions: tuple[Redaction, ...] = ()
    if selector.kind == "concept" or purge:
        found = scope.mentions(store, Forgotten.terms(terms), episodes, where)
        episodes = list(found.episodes)
        blocked = _joined(blocked, [(concept, "concept") for concept in found.concepts])
        redactions = found.redactions
    if purge:
        blocked = _joined(blocked, as_blocked(term_keys(terms)))
    concepts = [k for k, kind in blocked if kind == "concept"]
    removed, gone = scope.predict(store, episodes, concepts, where)
    labels = tuple(sorted(store.backend.labels(sorted(gone)).values()))
    content = _payload(store, episodes, where)
    payload = None
    if not purge:
        absorbed = _absorbed(redactions, where)
        back = _payload(store, [*episodes, *absorbed], where) if absorbed else content
        kept = {**back, "redactions": _undo(store, redactions, absorbed)}
        payload = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Plan(
        selector.kind,
        target,
        key,
        purge,
        tuple(episodes),
        tuple(blocked),
        redactions,
        terms,
        removed,
        labels,
        payload,
        content,
    )


def _joined(first: Sequence[tuple[bytes, str]], more: Sequence[tuple[bytes, str]]) -> list[tuple[bytes, str]]:
    """`first`, then those of `more` whose key it does not hold (the first row of a key counts)."""
    joined, held = list(first), {key for key, _ in first}
    for key, kind in more:
        if key not in held:
            held.add(key)
            joined.append((key, kind))
    return joined


def _planned_terms(
    store: MemoryStore,
    kind: str,
    target: str,
    episodes: Sequence[bytes],
    blocked: Sequence[tuple[bytes, str]],
    aliases: AliasTable | None,
    where: dict[bytes, scope.Episode],
) -> tuple[str, ...]:
    """What experiences must no longer mention, and a purge erases: a concept's label, aliases and the
    alias table's variants; for a source, scope, time range or space, every concept it removes (label
    and aliases); nothing for one fact (its concepts stay)."""
    if kind == "fact":
        return ()
    if kind == "concept":
        concept = blocked[0][0]
        found: set[str] = {target, *(aliases or AliasTable.default()).variants(target)}
        for node in store.backend.concepts([concept]).values():
            found.update((node.label, *node.aliases))
        return tuple(sorted(found))
    _, gone = scope.predict(store, episodes, [], where)
    names: set[str] = set()
    for node in store.backend.concepts(sorted(gone)).values():
        names.update((node.label, *node.aliases))
    return tuple(sorted(names))


def _absorbed(redactions: Sequence[Redaction], where: dict[bytes, scope.Episode]) -> set[bytes]:
    """The episodes a redaction folds into one already stored under the new hash (in the order
    `Forgetting.redact` moves them: redaction by redaction, live before pruned, by hash): restore
    puts them back from the payload, not by moving the one that absorbed them."""
    held, found = set(where), set()
    for redaction in redactions:
        moves = [(before, after) for before, after in redaction.moves if before != after]
        for before, after in sorted(moves, key=lambda move: (not where[move[0]].live, move[0])):
            if after in held:
                found.add(before)
            held.add(after)
    return found


def _undo(
    store: MemoryStore, redactions: Sequence[Redaction], absorbed: set[bytes]
) -> list[dict[str, object]]:
    """How to put each redacted context back (restore): its stored form and the episodes moved."""
    stored = store.backend.contexts([r.old for r in redactions])
    undo: list[dict[str, object]] = []
    for redaction in redactions:
        node, created = stored[redaction.old]
        undo.append(
            {
                "context": node.meta.to_json(),
                "created_at": created,
                "from": redaction.new.hex(),
                "moves": [
                    [before.hex(), after.hex()] for before, after in redaction.moves if before not in absorbed
                ],
            }
        )
    return undo


def unredactions(payload: str) -> list[Redaction]:
    """The redactions that put a plain forget's redacted contexts back as they were stored."""
    from zerolang.knowledge.hashing import context_hash

    found = []
    for item in json.loads(payload).get("redactions", ()):
        meta = ContextMeta.from_json(item["context"])
        moves = tuple((bytes.fromhex(after), bytes.fromhex(before)) for before, after in item["moves"])
        node = ContextNode(context_hash(meta), meta)
        found.append(Redaction(bytes.fromhex(item["from"]), node, item["created_at"], moves))
    return found


def forget(
    store: MemoryStore,
    selector: Selector,
    *,
    at: str,
    purge: bool = False,
    aliases: AliasTable | None = None,
    inside: Callable[[str, tuple[str, ...]], object] | None = None,
    experiences: str | Path | None = None,
    searched: Mapping[str, int] | None = None,
    dry_run: bool = False,
) -> ForgetReport:
    """Forget what `selector` names, as of store time `at`; ZeroError if it names nothing stored.

    It applies `plan`; `dry_run` reports the plan and writes nothing. `inside(tombstone, terms)`
    blocks the terms in the experience store at `experiences`. It runs within the forget's
    transaction, once the terms experiences must no longer show are known and before the memory
    commits: a failure there forgets nothing, and a crash between the two commits leaves the
    experiences blocked (more hidden, never less) and the forget to be run again. When that store
    is the memory's own SQLite file (one writer at a time), it runs after the commit instead.

    `searched`: the other stores of the memory searched for a concept's label when the store holds
    no such concept, with how many of their items mention it (`zerolang.memory.holders`). One that
    does: the label is forgotten all the same (its concept's hash blocked, its terms passed to
    `inside`); none: the error names the stores searched.
    """
    if dry_run:
        with store.snapshot():
            return plan(store, selector, at=at, purge=purge, aliases=aliases, searched=searched).report(
                dry_run=True
            )
    first = _blocks_first(store, experiences)
    with store.transaction():
        chosen = plan(store, selector, at=at, purge=purge, aliases=aliases, searched=searched)
        key, terms = chosen.tombstone, chosen.terms
        content = chosen.content
        row = TombstoneRow(
            key,
            chosen.kind,
            None if purge else chosen.target,
            at,
            chosen.payload,
            at if purge else None,
            None,
        )
        rivals = _rivals(store, content)
        removed = store.backend.forget(row, chosen.episodes, chosen.blocked)
        moved = store.backend.redact(chosen.redactions)
        _settle_rivals(store, rivals, at)
        if purge:
            _scrub(store, Forgotten.terms((*terms, chosen.target)), at, key)
        purged = " (purged)" if purge else ""
        detail = f"{chosen.kind}{purged}: {removed.episodes} episodes, {len(chosen.blocked)} keys"
        store.backend.append_log(at, "forget", key, detail)
        if chosen.redactions:
            store.backend.append_log(at, "redact", key, scope.redaction_detail(len(chosen.redactions), moved))
        if inside is not None and first:
            inside(key.hex(), terms)
    if purge:
        store.backend.erase_freed()
    if inside is not None and not first:
        inside(key.hex(), terms)
    return chosen.report(removed)


def _terms(
    kind: str, target: str, content: dict[str, object], blocked: list[tuple[bytes, str]], gone: set[str]
) -> tuple[str, ...]:
    """What experiences must no longer mention: a concept's label and spellings (with the alias
    table's variants, added by the caller); for a source, scope,
    time range or space, every concept it removed; nothing for one fact (its concepts stay)."""
    if kind == "concept":
        return tuple(sorted({target} | _spellings(content, blocked[0][0])))
    if kind == "fact":
        return ()
    return tuple(sorted(gone))


def _spellings(content: dict[str, object], concept: bytes) -> set[str]:
    """A forgotten concept's label and aliases, as the payload recorded them."""
    concepts = content["concepts"]
    assert isinstance(concepts, list)
    for item in concepts:
        if bytes.fromhex(item["hash"]) == concept:
            return {item["label"], *item["aliases"]}
    return set()


def _gone_labels(store: MemoryStore, content: dict[str, object]) -> set[str]:
    """The labels and spellings of the payload's concepts that the forget removed."""
    concepts = content["concepts"]
    assert isinstance(concepts, list)
    still = store.backend.concepts([bytes.fromhex(c["hash"]) for c in concepts])
    gone: set[str] = set()
    for concept in concepts:
        if bytes.fromhex(concept["hash"]) not in still:
            gone.add(concept["label"])
            gone.update(concept["aliases"])
    return gone


def _scrub(store: MemoryStore, forgotten: Forgotten, at: str, own: bytes) -> None:
    """Purge every other live tombstone whose target or payload mentions what a purge erased."""
    for row in store.backend.tombstones():
        if (
            row.purged_at is None
            and row.hash != own
            and forgotten.mentions(*strings(row.target or ""), row.payload or "")
        ):
            store.backend.purge_tombstone(row.hash, at)


def _already(store: MemoryStore, label: str, aliases: AliasTable | None) -> str:
    """`: it was forgotten ...` naming the live tombstone that blocks the concept `label` would have (by
    its hash: a purge erased the label itself), else ""."""
    from zerolang.knowledge.hashing import concept_hash
    from zerolang.knowledge.normalize import normalize_label

    names = {normalize_label(label)}
    if aliases is not None:
        names.add(aliases.resolve(label))
    keys = {concept_hash(name).digest for name in names if name}
    blocking = {tombstone for key, _kind, tombstone in store.backend.forgotten_keys() if key in keys}
    for row in store.backend.tombstones():
        if row.hash in blocking and row.restored_at is None:
            how = f"purged {row.purged_at}" if row.purged_at else f"forgotten {row.created_at}"
            listed = "zero memory tombstones lists it"  # no backquotes: the message is fitted by them
            return f": it was forgotten already, tombstone {row.hash.hex()} ({how}; {listed})"
    return ""


def _select(
    store: MemoryStore,
    selector: Selector,
    aliases: AliasTable | None,
    searched: Mapping[str, int] | None = None,
) -> tuple[str, list[bytes], list[tuple[bytes, str]]]:
    """The canonical target, the episodes to remove and the keys to block."""
    backend = store.backend
    kind, target = selector.kind, selector.target
    if kind == "concept":
        concept = store.find_concept(target, aliases)
        if concept is None and searched and any(searched.values()):  # a label only they hold
            from zerolang.knowledge.hashing import concept_hash

            label = (aliases or AliasTable.default()).resolve(target)
            return label, [], [(concept_hash(label).digest, "concept")]
        if concept is None:
            where = f" (nothing in its {', '.join(searched)} mentions it either)" if searched else ""
            raise ZeroError(f"no concept `{target}` in {store.path}{where}{_already(store, target, aliases)}")
        facts = [f.fact_hash.digest for f in backend.facts_touching([concept.hash.digest])]
        return concept.label, backend.episodes_by("fact_hash", facts), [(concept.hash.digest, "concept")]
    if kind == "fact":
        key, text = fact_key(store, target, aliases)
        episodes = backend.episodes_by("fact_hash", [key])
        if not episodes:
            raise ZeroError(f"no fact `{target}` in {store.path}")
        return text, episodes, [(key, "fact")]
    contexts, text = _contexts(store, kind, target)
    episodes = backend.episodes_by("context_hash", contexts)
    if not episodes:
        raise ZeroError(f"nothing stored with {kind} `{target}` in {store.path} (space {store.space})")
    return text, episodes, [(episode, "episode") for episode in episodes]


def fact_key(store: MemoryStore, target: str, aliases: AliasTable | None) -> tuple[bytes, str]:
    if HEX_DIGEST.match(target):
        fact = store.get_fact(FactHash.from_hex(target))
        if fact is None:
            raise ZeroError(f"no fact {target} in {store.path}")
        labels = store.backend.labels([fact.subject_hash.digest, fact.object_hash.digest])
        text = f"{labels[fact.subject_hash.digest]}|{fact.predicate}|{labels[fact.object_hash.digest]}"
        return fact.fact_hash.digest, text
    parts = target.split("|")
    if len(parts) != 3 or not all(part.strip() for part in parts):
        raise ZeroError(f"a fact is `subject|predicate|object` or a fact hash, not {target!r}")
    subject = store.get_concept_by_label(parts[0], aliases)
    obj = store.get_concept_by_label(parts[2], aliases)
    if subject is None or obj is None:
        raise ZeroError(f"no fact `{target}` in {store.path}")
    predicate = normalize_predicate(parts[1])
    return fact_hash(subject.label, predicate, obj.label).digest, f"{subject.label}|{predicate}|{obj.label}"


def _contexts(store: MemoryStore, kind: str, target: str) -> tuple[list[bytes], str]:
    scanned = list(store.backend.scan_contexts())
    if kind == "source":
        return [node.hash.digest for node, _ in scanned if node.meta.source == target], target
    if kind == "scope":
        return [node.hash.digest for node, _ in scanned if node.meta.scope == target], target
    if kind == "space":
        if target != store.space:
            raise ZeroError(f"forgetting space {target!r} needs the store opened on it (--space {target})")
        return [node.hash.digest for node, _ in scanned], target
    low, _, high = target.partition("..")
    start, end = _moment(low, "from"), _moment(high, "to")
    if start is None and end is None:
        raise ZeroError("a time range needs at least one end: FROM..TO")
    chosen = []
    for node, _ in scanned:
        moment = _moment(node.meta.event_time, "event time")
        if moment is None:
            continue
        if (start is None or moment >= start) and (end is None or moment < end):
            chosen.append(node.hash.digest)
    return chosen, target


def _moment(text: str, what: str) -> datetime | None:
    from datetime import UTC

    if not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ZeroError(f"{what}: not an ISO 8601 time: {text!r}") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# ---- the payload: what restore puts back ------------------------------------------------------


def _rivals(store: MemoryStore, content: dict[str, object]) -> list[bytes]:
    """The facts whose validity may follow from what a forget takes: the forgotten episodes' facts
    and, for a single-valued predicate, their subject's other facts of it."""
    from zerolang.knowledge.backend import FactFilter

    relations = content["relations"]
    assert isinstance(relations, list)
    single = store.single_valued
    keys: set[bytes] = set()
    for relation in relations:
        keys.add(bytes.fromhex(relation["fact_hash"]))
        if relation["predicate"] in single:
            subject = bytes.fromhex(relation["subject_hash"])
            keys.update(
                f.fact_hash.digest
                for f in store.backend.find_facts(
                    FactFilter(subject=subject, predicate=relation["predicate"])
                )
            )
    return sorted(keys)


def _settle_rivals(store: MemoryStore, keys: Sequence[bytes], at: str) -> None:
    """What the store believes of the facts a forget leaves, as if it had never been told what went."""
    from zerolang.knowledge import temporal

    left = sorted(store.backend.facts(list(keys)))
    if left:
        temporal.settle(store.backend, left, at=at, cause=lambda _: "forget", single=store.single_valued)


def _payload(
    store: MemoryStore, episodes: Sequence[bytes], where: dict[bytes, scope.Episode]
) -> dict[str, object]:
    backend = store.backend
    wanted = set(episodes)
    facts = sorted({where[key].fact for key in wanted if key in where})
    relations = [r for r in backend.scan_relations(facts) if r.episode_hash.digest in wanted]
    ends = sorted({r.subject_hash.digest for r in relations} | {r.object_hash.digest for r in relations})
    concepts = backend.concepts(ends)
    contexts = backend.contexts(sorted({r.context_hash.digest for r in relations}))
    return {
        "concepts": [concepts[key].to_json() for key in sorted(concepts)],
        "contexts": [
            {"hash": str(node.hash), "meta": node.meta.to_json(), "created_at": at}
            for key, (node, at) in sorted(contexts.items())
        ],
        "relations": [r.to_json() for r in sorted(relations, key=lambda r: r.episode_hash.digest)],
    }


def payload_records(payload: str) -> list[MemoryRecord]:
    """The records a tombstone's payload puts back, one per context, oldest relation first."""
    data = json.loads(payload)
    concepts = {c["hash"]: ConceptNode.from_json(c) for c in data["concepts"]}
    by_context: dict[str, list[RelationNode]] = {}
    for r in data["relations"]:
        by_context.setdefault(r["context_hash"], []).append(RelationNode.from_json(r))
    records = []
    for context in data["contexts"]:
        node = ContextNode(ContextHash.from_hex(context["hash"]), ContextMeta.from_json(context["meta"]))
        relations = sorted(
            by_context.get(context["hash"], []), key=lambda r: (r.created_at, r.episode_hash.digest)
        )
        if not relations:
            continue
        mentioned = {str(r.subject_hash) for r in relations} | {str(r.object_hash) for r in relations}
        records.append(MemoryRecord(tuple(concepts[k] for k in sorted(mentioned)), tuple(relations), node))
    return records


# ---- restore, purge, list --------------------------------------------------------------------


def find_tombstone(store: MemoryStore, query: str, aliases: AliasTable | None = None) -> TombstoneRow:
    """A tombstone by hash, unique hash prefix (4+ hex digits) or its target (the latest live one);
    a concept's target also by any spelling that resolves to its label."""
    rows = store.backend.tombstones()
    resolved = (aliases or AliasTable.default()).resolve(query)
    text = query.strip().lower()
    if len(text) >= 4 and all(ch in "0123456789abcdef" for ch in text):
        found = [row for row in rows if row.hash.hex().startswith(text)]
        if len(found) > 1:
            raise ZeroError(
                f"tombstone prefix {query} is ambiguous: {', '.join(r.hash.hex()[:12] for r in found)}"
            )
        if found:
            return found[0]
    named = [
        row
        for row in rows
        if row.target is not None
        and (row.target.lower() == text or (row.kind == "concept" and row.target == resolved))
    ]
    live = [row for row in named if row.restored_at is None]
    if live or named:
        return (live or named)[-1]
    raise ZeroError(f"no tombstone `{query}` in {store.path} (zero memory tombstones lists them)")


def restore(
    store: MemoryStore, query: str, *, at: str, aliases: AliasTable | None = None
) -> tuple[TombstoneRow, int]:
    """Lift a tombstone and put back what it removed (unless purged); the row and relations restored."""
    row = find_tombstone(store, query, aliases)
    if row.restored_at is not None:
        raise ZeroError(f"tombstone {row.hash.hex()[:12]} was already restored at {row.restored_at}")
    with store.transaction():
        store.backend.restore_tombstone(row.hash, at)
        undone = unredactions(row.payload) if row.payload else []
        if undone:
            store.backend.redact(undone)
            store.backend.append_log(at, "unredact", row.hash, f"{len(undone)} contexts put back")
        records = payload_records(row.payload) if row.payload else []
        result = store.apply(records) if records else None
        back = 0 if result is None else result.new_episodes
        store.backend.append_log(at, "restore", row.hash, f"{row.kind}: {back} episodes back")
    return row, 0 if result is None else result.new_episodes


def purge(store: MemoryStore, query: str, *, at: str) -> TombstoneRow:
    """Erase a tombstone's target and payload (its hash and blocks stay), then the freed storage."""
    row = find_tombstone(store, query)
    with store.transaction():
        if row.purged_at is None:
            terms = purged_terms_of(store, row)
            store.backend.purge_tombstone(row.hash, at)
            row = TombstoneRow(row.hash, row.kind, None, row.created_at, None, at, row.restored_at)
            if row.restored_at is None:
                erase_terms(store, row, terms, at)
            store.backend.append_log(at, "purge", row.hash, row.kind)
        elif row.restored_at is None:  # run again: what mentions its terms since goes too
            erase_terms(store, row, (), at)
    store.backend.erase_freed()
    return row


def purged_terms_of(store: MemoryStore, row: TombstoneRow) -> tuple[str, ...]:
    """The terms a live tombstone's purge erases everywhere (`_terms`, from its payload)."""
    if row.restored_at is not None or row.target is None:
        return ()
    if row.payload is None:
        return (row.target,) if row.kind == "concept" else ()
    content = json.loads(row.payload)
    blocked = [(key, kind) for key, kind, owner in store.backend.forgotten_keys() if owner == row.hash]
    concepts = [item for item in blocked if item[1] == "concept"]
    if row.kind == "concept" and not concepts:
        return tuple(sorted({row.target, *AliasTable.default().variants(row.target)}))
    terms = _terms(row.kind, row.target, content, concepts or blocked, _gone_labels(store, content))
    if row.kind == "concept":
        terms = tuple(sorted({*terms, *AliasTable.default().variants(row.target)}))
    return terms

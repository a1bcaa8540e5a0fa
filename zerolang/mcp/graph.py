"""The reference MCP memory server's knowledge graph, kept in 0-memory as a log of recorded operations.

Agents configured for the reference server (modelcontextprotocol/servers, `src/memory`) see
entities (`name`, `entityType`, `observations`) and relations (`from`, `to`, `relationType`),
compared as exact strings. Here every operation that changes the graph is one memory record:

- its **context** has source `mcp:knowledge-graph`, scope `kg-op:<id>` (ids sort in the order the
  operations happened: nanoseconds, then random digits) and metadata `kg_op`, the operation's
  effect as JSON (only what changed: entities that were new, observations not already held);
- its **tuples** make the graph's content ordinary facts that `query`, `get` and recall reach:
  `(name, entity_type, type)`, `(name, has_observation, text)`, `(from, relationType, to)`.

Deletions are recorded operations too (`kg_op` names what was removed; their tuple is the
bookkeeping fact `(mcp knowledge graph, recorded, delete ...)`), and they *retire* the facts they
remove as `zero memory retract` does: `delete_observations` retracts `(name, has_observation, text)`,
`delete_relations` `(from, relationType, to)`, and `delete_entities` the entity's type, observations
and relations. A retired fact stays for history (`as of`, `known at`, `history`) and is no longer
current; stating it again (`add_observations`, `create_*`) reasserts it. The graph the tools read
is the replay of the log, less every item whose fact is retired or forgotten, however that
happened (here, `zero memory retract`, `forget`).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from zerolang.knowledge.asking import WordScorer, question_words
from zerolang.knowledge.types import CompilerInput, ContextMeta, InputError, SemanticTuple
from zerolang.memory.api import Memory
from zerolang.util.errors import ZeroError

SOURCE = "mcp:knowledge-graph"
SCOPE_PREFIX = "kg-op:"
METADATA_KEY = "kg_op"
FALLBACK_SUBJECT = "mcp knowledge graph"


@dataclass(slots=True)
class Entity:
    name: str
    entityType: str
    observations: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "entityType": self.entityType, "observations": list(self.observations)}


@dataclass(frozen=True, slots=True)
class Relation:
    source: str  # `from` on the wire
    to: str
    relationType: str

    def to_json(self) -> dict[str, str]:
        return {"from": self.source, "to": self.to, "relationType": self.relationType}


@dataclass(slots=True)
class Graph:
    """Entities and relations in the order they were made, with each name's relations at hand, so
    that applying one operation or opening a few nodes costs what they touch, not the graph."""

    entities: dict[str, Entity] = field(default_factory=dict)
    relations: dict[Relation, None] = field(default_factory=dict)  # a set that keeps its order
    links: dict[str, dict[Relation, None]] = field(default_factory=dict)  # each end's relations
    _order: dict[str, int] = field(default_factory=dict)  # when each current entity was made
    _ranks: dict[Relation, int] = field(default_factory=dict)  # when each current relation was
    _next: int = 0

    def __post_init__(self) -> None:
        for name in self.entities:
            self._order[name] = self._tick()
        for relation in self.relations:
            self._link(relation)

    def _tick(self) -> int:
        self._next += 1
        return self._next

    def _link(self, relation: Relation) -> None:
        self._ranks[relation] = self._tick()
        self.links.setdefault(relation.source, {})[relation] = None
        self.links.setdefault(relation.to, {})[relation] = None

    def add_entity(self, entity: Entity) -> None:
        self.entities.pop(entity.name, None)  # made afresh: it goes last, as in a replay
        self.entities[entity.name] = entity
        self._order[entity.name] = self._tick()

    def add_relation(self, relation: Relation) -> None:
        if relation not in self.relations:
            self.relations[relation] = None
            self._link(relation)

    def drop_relation(self, relation: Relation) -> None:
        if self.relations.pop(relation, False) is None:
            del self._ranks[relation]
            for end in (relation.source, relation.to):
                held = self.links.get(end)
                if held is not None:
                    held.pop(relation, None)
                    if not held:
                        del self.links[end]

    def drop_entity(self, name: str) -> None:
        """The entity and every relation with an end named `name` (whether or not the other is held)."""
        self.entities.pop(name, None)
        self._order.pop(name, None)
        for relation in list(self.links.get(name, ())):
            self.drop_relation(relation)

    def to_json(self) -> dict[str, Any]:
        return {
            "entities": [entity.to_json() for entity in self.entities.values()],
            "relations": [relation.to_json() for relation in self.relations],
        }

    def apply(self, op: dict[str, Any]) -> None:
        """Apply one recorded operation (its effect: everything in it applies), in O(what it names)."""
        kind = op.get("op")
        if kind == "create_entities":
            for item in op["entities"]:  # recorded only when the name was not current: it starts afresh
                self.add_entity(Entity(item["name"], item["entityType"], list(item["observations"])))
        elif kind == "create_relations":
            for item in op["relations"]:
                self.add_relation(Relation(item["from"], item["to"], item["relationType"]))
        elif kind == "add_observations":
            for item in op["observations"]:
                entity = self.entities.get(item["entityName"])
                if entity is not None:
                    held = set(entity.observations)
                    for content in item["contents"]:
                        if content not in held:
                            held.add(content)
                            entity.observations.append(content)
        elif kind == "delete_entities":
            for name in op["entityNames"]:
                self.drop_entity(name)
        elif kind == "delete_observations":
            for item in op["deletions"]:
                entity = self.entities.get(item["entityName"])
                if entity is not None:
                    drop = set(item["observations"])
                    entity.observations = [o for o in entity.observations if o not in drop]
        elif kind == "delete_relations":
            for r in op["relations"]:
                self.drop_relation(Relation(r["from"], r["to"], r["relationType"]))

    def copy(self) -> Graph:
        entities = {
            name: Entity(e.name, e.entityType, list(e.observations)) for name, e in self.entities.items()
        }
        return Graph(entities, dict(self.relations))

    def held(self, relations: Iterable[Relation]) -> list[Relation]:
        """Those of `relations` the graph holds, in its order."""
        return sorted({r for r in relations if r in self.relations}, key=self._ranks.__getitem__)

    def subgraph(self, names: Iterable[str]) -> Graph:
        """These entities and every relation with at least one end among them (as the reference does),
        in the graph's order; it costs the named entities and their relations, not the graph."""
        found = sorted({name for name in names if name in self.entities}, key=self._order.__getitem__)
        entities = {name: self.entities[name] for name in found}
        touching = {relation for name in found for relation in self.links.get(name, ())}
        relations = dict.fromkeys(sorted(touching, key=self._ranks.__getitem__))
        return Graph(entities, relations)


class KnowledgeGraph:
    """The reference server's operations over a `Memory` (one space).

    The current graph is kept between calls with the store's *token* it was made at (the space's
    table seals, which every write to the space changes: one indexed read, never a count). While
    the token is unchanged and no validity period it depends on has ended or begun, nothing else
    changed the graph: a read answers from it, and a write checks, records and applies its own
    operation to it, so a call costs what it touches. Any other change (another server, `zero
    memory retract`, `forget`, a declared single-valued predicate) makes the next call replay the
    log once.
    """

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._lock = threading.Lock()
        self._graph: Graph | None = None
        self._token: object = None
        self._until: str | None = None  # when a validity period of an item begins or ends
        self._fact_keys: dict[tuple[str, str, str], bytes | None] = {}
        self._alike: dict[str, set[str]] | None = None  # the kept graph's names, by the label they state

    # ---- reading ----
    def load(self) -> Graph:
        """The current graph: the recorded operations of this space replayed in order, less what is
        no longer current. It is the one kept between calls: read it, do not change it."""
        from zerolang.util.times import utc_now

        token = self._token_now()
        expired = self._until is not None and utc_now() >= self._until
        if self._graph is None or token != self._token or expired:
            self._graph, self._until = self._current(self._replay())
            self._token = token
            self._alike = None
        return self._graph

    def _token_now(self) -> object:
        """What every write to the space changes: its table seals (a handful of rows, one a table:
        a set, whatever order they come in)."""
        backend = self.memory.store.backend
        seals = frozenset(backend.raw_seals())
        return seals if seals else ("counts", self.memory.store.counts())  # a store never sealed

    @staticmethod
    def _items(graph: Graph) -> list[tuple[str, str, str]]:
        items: list[tuple[str, str, str]] = []
        for entity in graph.entities.values():
            items.append((entity.name, "entity_type", entity.entityType))
            items += [(entity.name, "has_observation", o) for o in entity.observations]
        items += [(r.source, r.relationType, r.to) for r in graph.relations]
        return items

    def _current(self, graph: Graph) -> tuple[Graph, str | None]:
        """`graph` less every item whose fact the memory holds retired, or that a forget blocks; and
        the next moment a validity period of one of its facts begins or ends."""
        retired, until = self._status(self._items(graph))
        if not retired:
            return graph, until
        entities = {
            name: Entity(
                e.name,
                e.entityType,
                [o for o in e.observations if (name, "has_observation", o) not in retired],
            )
            for name, e in graph.entities.items()
            if (name, "entity_type", e.entityType) not in retired
        }
        relations = {
            r: None
            for r in graph.relations
            if (r.source, r.relationType, r.to) not in retired and r.source in entities and r.to in entities
        }
        return Graph(entities, relations), until

    def _keys(self, items: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], bytes]:
        """The fact hash each statable item has, as ingest computes it (items no fact can hold: none)."""
        from zerolang.knowledge.compiler import compile_record

        items = list(items)
        missing = [item for item in dict.fromkeys(items) if item not in self._fact_keys]
        for item in missing:
            try:
                fact = SemanticTuple(*item)
            except InputError:
                self._fact_keys[item] = None
                continue
            record = compile_record(CompilerInput((fact,), ContextMeta("2000-01-01T00:00:00Z", SOURCE, "kg")))
            self._fact_keys[item] = record.relations[0].fact_hash.digest
        found = {item: self._fact_keys[item] for item in items}
        return {item: key for item, key in found.items() if key is not None}

    def _status(self, items: list[tuple[str, str, str]]) -> tuple[set[tuple[str, str, str]], str | None]:
        """The items whose fact is missing, retired or blocked by a forget; and the next moment (after
        now) a believed validity period of one of their facts begins or ends (None: no such moment)."""
        from zerolang.memory.validity import current_facts

        keys = self._keys(items)
        if not keys:
            return set(), None
        live, until = current_facts(self.memory.store, keys.values())
        return {item for item, key in keys.items() if key not in live}, until

    def _retire(self, items: list[tuple[str, str, str]]) -> None:
        """Retract the current facts among `items` (as `zero memory retract` does), now; a fact that
        an item the graph keeps also states stays (names that normalise alike, `Ada` and ` Ada`,
        state one fact: retracting it would drop the kept item at the next replay)."""
        from zerolang.memory.validity import retract_current

        keys = self._keys(items)
        if self._graph is not None:  # the graph before this operation (`_writing` loaded it)
            gone = set(items)
            kept = set(self._keys(item for item in self._stating(items) if item not in gone).values())
            keys = {item: key for item, key in keys.items() if key not in kept}
        retract_current(self.memory.store, keys.values())

    def _stating(self, items: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        """The kept graph's items that may state the fact of one of `items`: those whose subject
        states the same concept (a fact's key starts with its subject's label); O(what they touch)."""
        from zerolang.knowledge.normalize import AliasTable

        graph = self._graph
        assert graph is not None
        label = AliasTable.default().resolve  # as `_keys` (`compile_record`) labels a concept
        alike = self._names_by_label(graph)
        found: list[tuple[str, str, str]] = []
        for subject in {label(subject) for subject, _, _ in items}:
            for name in alike.get(subject, ()):
                entity = graph.entities.get(name)
                if entity is not None:
                    found.append((name, "entity_type", entity.entityType))
                    found += [(name, "has_observation", o) for o in entity.observations]
                found += [
                    (r.source, r.relationType, r.to) for r in graph.links.get(name, ()) if r.source == name
                ]
        return found

    def _names_by_label(self, graph: Graph) -> dict[str, set[str]]:
        """Every name the kept graph holds (an entity, a relation's end), by the concept label it
        states: made once a graph, then kept up to date by `_relabel`."""
        if self._alike is None:
            from zerolang.knowledge.normalize import AliasTable

            label = AliasTable.default().resolve
            self._alike = {}
            for name in {*graph.entities, *graph.links}:
                self._alike.setdefault(label(name), set()).add(name)
        return self._alike

    def _relabel(self, graph: Graph, op: dict[str, Any]) -> None:
        """`_alike` after `op` was applied to `graph`: each name it mentions is held or not."""
        if self._alike is None:
            return
        from zerolang.knowledge.normalize import AliasTable

        label = AliasTable.default().resolve
        names: set[str] = set()
        names.update(item["name"] for item in op.get("entities", ()))
        names.update(end for item in op.get("relations", ()) for end in (item["from"], item["to"]))
        names.update(op.get("entityNames", ()))
        for name in names:
            held = name in graph.entities or name in graph.links
            group = self._alike.setdefault(label(name), set())
            if held:
                group.add(name)
            else:
                group.discard(name)

    def _replay(self) -> Graph:
        ops: list[tuple[str, dict[str, Any]]] = []
        for context, _stored in self.memory.store.backend.scan_contexts():
            meta = context.meta
            if meta.source != SOURCE or not meta.scope.startswith(SCOPE_PREFIX):
                continue
            text = meta.metadata.get(METADATA_KEY)
            if text is None:
                continue
            ops.append((meta.scope, json.loads(text)))
        graph = Graph()
        for _, op in sorted(ops, key=lambda item: item[0]):
            graph.apply(op)
        return graph

    def read_graph(self) -> dict[str, Any]:
        with self._lock:
            return self.load().to_json()

    def search_nodes(self, query: str) -> dict[str, Any]:
        with self._lock:
            graph = self.load()
            needle = query.lower()
            names = [
                e.name
                for e in graph.entities.values()
                if needle in e.name.lower()
                or needle in e.entityType.lower()
                or any(needle in o.lower() for o in e.observations)
            ]
            return graph.subgraph(names or _by_words(graph, query)).to_json()

    def open_nodes(self, names: list[str]) -> dict[str, Any]:
        with self._lock:
            return self.load().subgraph(names).to_json()

    # ---- changing ----
    @contextmanager
    def _writing(self) -> Iterator[Graph]:
        """One write: serialised, in one transaction, on the current graph; if it fails, the kept
        graph (which the write may have begun to change) is dropped. Nothing inside catches a
        store's error and goes on, so the transaction is `whole` (no savepoint inside it)."""
        with self._lock:
            try:
                with self.memory.store.whole():
                    yield self.load()
            except BaseException:
                self._graph = None
                raise

    def create_entities(self, entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with self._writing() as graph:
            new: dict[str, dict[str, Any]] = {}
            for item in entities:
                if item["name"] not in graph.entities and item["name"] not in new:
                    new[item["name"]] = {**item, "observations": list(item["observations"])}
            if new:
                tuples = [(e["name"], "entity_type", e["entityType"]) for e in new.values()]
                tuples += [(e["name"], "has_observation", o) for e in new.values() for o in e["observations"]]
                self._record({"op": "create_entities", "entities": list(new.values())}, tuples)
            return list(new.values())

    def create_relations(self, relations: list[dict[str, str]]) -> list[dict[str, str]]:
        with self._writing() as graph:
            for item in relations:
                for end in (item["from"], item["to"]):
                    if end not in graph.entities:
                        raise ZeroError(f"Entity with name {end} not found")
            new: dict[Relation, None] = {}
            for item in relations:
                relation = Relation(item["from"], item["to"], item["relationType"])
                if relation not in graph.relations:
                    new[relation] = None
            if new:
                tuples = [(r.source, r.relationType, r.to) for r in new]
                self._record({"op": "create_relations", "relations": [r.to_json() for r in new]}, tuples)
            return [r.to_json() for r in new]

    def add_observations(self, observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with self._writing() as graph:
            results: list[dict[str, Any]] = []
            held: dict[str, set[str]] = {}  # a later item for the same entity sees what earlier ones add
            for item in observations:
                entity = graph.entities.get(item["entityName"])
                if entity is None:
                    raise ZeroError(f"Entity with name {item['entityName']} not found")
                known = held.setdefault(entity.name, set(entity.observations))
                added: list[str] = []
                for content in item["contents"]:
                    if content not in known:
                        known.add(content)
                        added.append(content)
                results.append({"entityName": item["entityName"], "addedObservations": added})
            effect = [
                {"entityName": r["entityName"], "contents": r["addedObservations"]}
                for r in results
                if r["addedObservations"]
            ]
            if effect:
                tuples = [(e["entityName"], "has_observation", o) for e in effect for o in e["contents"]]
                self._record({"op": "add_observations", "observations": effect}, tuples)
            return results

    def delete_entities(self, names: list[str]) -> str:
        with self._writing() as graph:
            deleted = [name for name in dict.fromkeys(names) if name in graph.entities]
            missing = [name for name in names if name not in graph.entities]
            if deleted:
                gone: list[tuple[str, str, str]] = []
                touching: dict[Relation, None] = {}
                for name in deleted:
                    entity = graph.entities[name]
                    gone.append((name, "entity_type", entity.entityType))
                    gone += [(name, "has_observation", o) for o in entity.observations]
                    touching.update(graph.links.get(name, {}))
                gone += [(r.source, r.relationType, r.to) for r in touching]
                self._record({"op": "delete_entities", "entityNames": deleted}, [], gone)
        if not missing:
            return "Entities deleted successfully"
        return f"Deleted {len(deleted)} of {len(names)} entities. Not found: {', '.join(missing)}"

    def delete_observations(self, deletions: list[dict[str, Any]]) -> str:
        with self._writing() as graph:
            effect: list[dict[str, Any]] = []
            missing: list[str] = []
            count = 0
            dropped: dict[str, set[str]] = {}  # a later item for the same entity sees earlier deletions
            for item in deletions:
                entity = graph.entities.get(item["entityName"])
                if entity is None:
                    missing.append(item["entityName"])
                    continue
                done = dropped.setdefault(entity.name, set())
                drop = set(item["observations"]) - done
                gone = [o for o in entity.observations if o in drop]
                done.update(gone)
                count += len(gone)
                if gone:
                    effect.append({"entityName": item["entityName"], "observations": gone})
            if effect:
                retired = [(e["entityName"], "has_observation", o) for e in effect for o in e["observations"]]
                self._record({"op": "delete_observations", "deletions": effect}, [], retired)
        requested = sum(len(item["observations"]) for item in deletions)
        if count == requested:
            return "Observations deleted successfully"
        tail = f" Entities not found: {', '.join(missing)}" if missing else ""
        return f"Deleted {count} of {requested} observations.{tail}"

    def delete_relations(self, relations: list[dict[str, str]]) -> str:
        with self._writing() as graph:
            wanted = {Relation(r["from"], r["to"], r["relationType"]) for r in relations}
            gone = [r.to_json() for r in graph.held(wanted)]
            if gone:
                retired = [(r["from"], r["relationType"], r["to"]) for r in gone]
                self._record({"op": "delete_relations", "relations": gone}, [], retired)
        if len(gone) == len(relations):
            return "Relations deleted successfully"
        return f"Deleted {len(gone)} of {len(relations)} relations. The rest matched nothing."

    def _record(
        self,
        op: dict[str, Any],
        stated: list[tuple[str, str, str]],
        retired: list[tuple[str, str, str]] | None = None,
    ) -> None:
        """Store one operation (its effect in the context's metadata, what it states as facts), retire
        what it removes, and bring the kept graph up to date: applied in place when nothing else
        wrote since it was made, else dropped (the next call replays the log)."""
        from zerolang.memory.upkeep import ingest_one
        from zerolang.util.times import utc_now

        facts: list[SemanticTuple] = []
        for subject, predicate, obj in stated:
            try:
                facts.append(SemanticTuple(subject, predicate, obj))
            except InputError:  # a name no label can hold (e.g. only punctuation): the log keeps it
                continue
        if not facts:
            facts.append(SemanticTuple(FALLBACK_SUBJECT, "recorded", str(op["op"]).replace("_", " ")))
        op_id = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        text = json.dumps(op, ensure_ascii=False, separators=(",", ":"))
        context = ContextMeta(utc_now(), SOURCE, SCOPE_PREFIX + op_id, metadata={METADATA_KEY: text})
        kept = self._graph is not None  # `_writing` loaded it in this transaction: nothing wrote since
        inserted = ingest_one(self.memory.store, CompilerInput(tuple(facts), context))
        if retired:
            self._retire(retired)
        if kept:  # a forget blocked some of what it states: it is not all current
            kept = not inserted.forgotten
        if kept:
            single = self.memory.store.single_valued  # stating one may end its rivals' validity
            kept = not any(predicate in single for _, predicate, _ in stated)
        still: set[tuple[str, str, str]] = set()
        until: str | None = None
        if kept and self.memory.store.backend.has_periods():  # else every stored fact is current
            # what it states must now be current (a period may not have begun, or not reopened)
            still, until = self._status(stated)
        if not kept or still or self._graph is None:
            self._graph = None
            return
        self._graph.apply(op)  # the newest operation: applying it last keeps the log's order
        self._relabel(self._graph, op)
        self._token = self._token_now()
        if until is not None and (self._until is None or until < self._until):
            self._until = until


WORD_MATCHES = 25
"""The most entities `search_nodes` returns for a query that no entity holds as a substring."""


def _by_words(graph: Graph, query: str) -> list[str]:
    """The entities a query in words names when none holds it whole ("where does Carol work?":
    Carol Diaz): those whose name, type or observations hold the most of its words (or their word
    forms), best first, ties in the graph's order; at most `WORD_MATCHES`."""
    words = question_words(query)
    if not words:
        return []
    score = WordScorer()
    ranked: list[tuple[float, int, str]] = []
    for place, entity in enumerate(graph.entities.values()):
        text = " ".join((entity.name, entity.entityType, *entity.observations))
        points, _ = score(words, text)
        if points > 0:
            ranked.append((-points, place, entity.name))
    return [name for _, _, name in sorted(ranked)[:WORD_MATCHES]]

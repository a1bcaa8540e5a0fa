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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from zerolang.knowledge.backend import Counts
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
    entities: dict[str, Entity] = field(default_factory=dict)
    relations: dict[Relation, None] = field(default_factory=dict)  # a set that keeps its order

    def to_json(self) -> dict[str, Any]:
        return {
            "entities": [entity.to_json() for entity in self.entities.values()],
            "relations": [relation.to_json() for relation in self.relations],
        }

    def apply(self, op: dict[str, Any]) -> None:
        """Replay one recorded operation (its effect: everything in it applies)."""
        kind = op.get("op")
        if kind == "create_entities":
            for item in op["entities"]:  # recorded only when the name was not current: it starts afresh
                observations = list(item["observations"])
                self.entities[item["name"]] = Entity(item["name"], item["entityType"], observations)
        elif kind == "create_relations":
            for item in op["relations"]:
                self.relations.setdefault(Relation(item["from"], item["to"], item["relationType"]))
        elif kind == "add_observations":
            for item in op["observations"]:
                entity = self.entities.get(item["entityName"])
                if entity is not None:
                    entity.observations.extend(o for o in item["contents"] if o not in entity.observations)
        elif kind == "delete_entities":
            gone = set(op["entityNames"])
            self.entities = {name: e for name, e in self.entities.items() if name not in gone}
            self.relations = {r: None for r in self.relations if r.source not in gone and r.to not in gone}
        elif kind == "delete_observations":
            for item in op["deletions"]:
                entity = self.entities.get(item["entityName"])
                if entity is not None:
                    drop = set(item["observations"])
                    entity.observations = [o for o in entity.observations if o not in drop]
        elif kind == "delete_relations":
            drop = {Relation(r["from"], r["to"], r["relationType"]) for r in op["relations"]}
            self.relations = {r: None for r in self.relations if r not in drop}

    def copy(self) -> Graph:
        entities = {
            name: Entity(e.name, e.entityType, list(e.observations)) for name, e in self.entities.items()
        }
        return Graph(entities, dict(self.relations))

    def subgraph(self, names: Iterable[str]) -> Graph:
        """These entities and every relation with at least one end among them (as the reference does)."""
        wanted = set(names)
        entities = {name: e for name, e in self.entities.items() if name in wanted}
        relations = {r: None for r in self.relations if r.source in entities or r.to in entities}
        return Graph(entities, relations)


class KnowledgeGraph:
    """The reference server's operations over a `Memory` (one space)."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._lock = threading.Lock()
        # The last replay and the store's counts it was made at: while they are unchanged (no
        # writer, here or elsewhere, added or removed anything), the log is the same.
        self._cached: tuple[Counts, Graph] | None = None
        self._fact_keys: dict[tuple[str, str, str], bytes | None] = {}

    # ---- reading ----
    def load(self) -> Graph:
        """The graph: every recorded operation of this space, replayed in order (a fresh copy)."""
        counts = self.memory.store.counts()
        if self._cached is None or self._cached[0] != counts:
            self._cached = (counts, self._replay())
        return self._current(self._cached[1].copy())

    def _current(self, graph: Graph) -> Graph:
        """`graph` less every item whose fact the memory holds retired, or that a forget blocks."""
        items: list[tuple[str, str, str]] = []
        for entity in graph.entities.values():
            items.append((entity.name, "entity_type", entity.entityType))
            items += [(entity.name, "has_observation", o) for o in entity.observations]
        items += [(r.source, r.relationType, r.to) for r in graph.relations]
        retired = self._retired(items)
        if not retired:
            return graph
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
        return Graph(entities, relations)

    def _keys(self, items: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], bytes]:
        """The fact hash each statable item has, as ingest computes it (items no fact can hold: none)."""
        from zerolang.knowledge.compiler import compile_record

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

    def _retired(self, items: list[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        """The items whose fact is missing, retired or blocked by a forget."""
        from zerolang.knowledge import temporal

        keys = self._keys(items)
        if not keys:
            return set()
        from zerolang.util.times import utc_now

        backend = self.memory.store.backend
        facts = backend.facts(list(set(keys.values())))
        blocked = backend.blocked(list(facts))
        live = temporal.visible(backend, list(facts), now=utc_now()) - blocked
        return {item for item, key in keys.items() if key not in live}

    def _retire(self, items: list[tuple[str, str, str]]) -> None:
        """Retract the current facts among `items` (as `zero memory retract` does), now."""
        from zerolang.knowledge import temporal
        from zerolang.util.times import utc_now

        keys = self._keys(items)
        backend = self.memory.store.backend
        facts = backend.facts(list(dict.fromkeys(keys.values())))
        at = utc_now()
        single = self.memory.store.single_valued
        for key, fact in facts.items():
            held = temporal.believed(temporal.beliefs(backend, [fact])[key])
            if not any(row.valid_to is None or row.valid_to > at for row in held):
                continue
            start = min(row.valid_from for row in held)
            temporal.retract(backend, fact, at=at, valid_to=max(at, start), single=single)

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
        return self.load().to_json()

    def search_nodes(self, query: str) -> dict[str, Any]:
        graph = self.load()
        needle = query.lower()
        names = [
            e.name
            for e in graph.entities.values()
            if needle in e.name.lower()
            or needle in e.entityType.lower()
            or any(needle in o.lower() for o in e.observations)
        ]
        return graph.subgraph(names).to_json()

    def open_nodes(self, names: list[str]) -> dict[str, Any]:
        return self.load().subgraph(names).to_json()

    # ---- changing ----
    def create_entities(self, entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with self._lock, self.memory.store.transaction():
            graph = self.load()
            new: list[dict[str, Any]] = []
            for item in entities:
                if item["name"] not in graph.entities and all(n["name"] != item["name"] for n in new):
                    new.append({**item, "observations": list(item["observations"])})
            if new:
                tuples = [(e["name"], "entity_type", e["entityType"]) for e in new]
                tuples += [(e["name"], "has_observation", o) for e in new for o in e["observations"]]
                self._record({"op": "create_entities", "entities": new}, tuples)
            return new

    def create_relations(self, relations: list[dict[str, str]]) -> list[dict[str, str]]:
        with self._lock, self.memory.store.transaction():
            graph = self.load()
            for item in relations:
                for end in (item["from"], item["to"]):
                    if end not in graph.entities:
                        raise ZeroError(f"Entity with name {end} not found")
            new: list[dict[str, str]] = []
            for item in relations:
                relation = Relation(item["from"], item["to"], item["relationType"])
                if relation not in graph.relations and relation.to_json() not in new:
                    new.append(relation.to_json())
            if new:
                tuples = [(r["from"], r["relationType"], r["to"]) for r in new]
                self._record({"op": "create_relations", "relations": new}, tuples)
            return new

    def add_observations(self, observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with self._lock, self.memory.store.transaction():
            graph = self.load()
            results: list[dict[str, Any]] = []
            for item in observations:
                entity = graph.entities.get(item["entityName"])
                if entity is None:
                    raise ZeroError(f"Entity with name {item['entityName']} not found")
                added: list[str] = []
                for content in item["contents"]:
                    if content not in entity.observations and content not in added:
                        added.append(content)
                entity.observations.extend(added)  # a later item for the same entity sees these
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
        with self._lock, self.memory.store.transaction():
            graph = self.load()
            deleted = [name for name in dict.fromkeys(names) if name in graph.entities]
            missing = [name for name in names if name not in graph.entities]
            if deleted:
                gone: list[tuple[str, str, str]] = []
                for name in deleted:
                    entity = graph.entities[name]
                    gone.append((name, "entity_type", entity.entityType))
                    gone += [(name, "has_observation", o) for o in entity.observations]
                gone += [
                    (r.source, r.relationType, r.to)
                    for r in graph.relations
                    if r.source in deleted or r.to in deleted
                ]
                self._record({"op": "delete_entities", "entityNames": deleted}, [])
                self._retire(gone)
        if not missing:
            return "Entities deleted successfully"
        return f"Deleted {len(deleted)} of {len(names)} entities. Not found: {', '.join(missing)}"

    def delete_observations(self, deletions: list[dict[str, Any]]) -> str:
        with self._lock, self.memory.store.transaction():
            graph = self.load()
            effect: list[dict[str, Any]] = []
            missing: list[str] = []
            count = 0
            for item in deletions:
                entity = graph.entities.get(item["entityName"])
                if entity is None:
                    missing.append(item["entityName"])
                    continue
                drop = set(item["observations"])
                gone = [o for o in entity.observations if o in drop]
                entity.observations = [o for o in entity.observations if o not in drop]
                count += len(gone)
                if gone:
                    effect.append({"entityName": item["entityName"], "observations": gone})
            if effect:
                self._record({"op": "delete_observations", "deletions": effect}, [])
                self._retire(
                    [(e["entityName"], "has_observation", o) for e in effect for o in e["observations"]]
                )
        requested = sum(len(item["observations"]) for item in deletions)
        if count == requested:
            return "Observations deleted successfully"
        tail = f" Entities not found: {', '.join(missing)}" if missing else ""
        return f"Deleted {count} of {requested} observations.{tail}"

    def delete_relations(self, relations: list[dict[str, str]]) -> str:
        with self._lock, self.memory.store.transaction():
            graph = self.load()
            wanted = {Relation(r["from"], r["to"], r["relationType"]) for r in relations}
            gone = [r.to_json() for r in graph.relations if r in wanted]
            if gone:
                self._record({"op": "delete_relations", "relations": gone}, [])
                self._retire([(r["from"], r["relationType"], r["to"]) for r in gone])
        if len(gone) == len(relations):
            return "Relations deleted successfully"
        return f"Deleted {len(gone)} of {len(relations)} relations. The rest matched nothing."

    def _record(self, op: dict[str, Any], tuples: list[tuple[str, str, str]]) -> None:
        """Store one operation: its effect in the context's metadata, its content as facts."""
        from zerolang.util.times import utc_now

        facts: list[SemanticTuple] = []
        for subject, predicate, obj in tuples:
            try:
                facts.append(SemanticTuple(subject, predicate, obj))
            except InputError:  # a name no label can hold (e.g. only punctuation): the log keeps it
                continue
        if not facts:
            facts.append(SemanticTuple(FALLBACK_SUBJECT, "recorded", str(op["op"]).replace("_", " ")))
        op_id = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        text = json.dumps(op, ensure_ascii=False, separators=(",", ":"))
        context = ContextMeta(utc_now(), SOURCE, SCOPE_PREFIX + op_id, metadata={METADATA_KEY: text})
        before = self._cached
        current = before is not None and before[0] == self.memory.store.counts()
        self.memory.ingest(CompilerInput(tuple(facts), context))
        landed = before is None or self.memory.store.counts() != before[0]
        if before is not None and current and landed:  # (a forget may have blocked every fact)
            before[1].apply(op)  # the newest operation: applying it last keeps the log's order
            self._cached = (self.memory.store.counts(), before[1])
        else:
            self._cached = None

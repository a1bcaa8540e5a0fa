"""The knowledge graph behaves like the reference server's, for any sequence of operations.

A plain in-memory model of the reference semantics (exact-string names; creating skips what
exists; relations need both ends; a deleted entity takes its relations along) runs beside
`KnowledgeGraph`; after every operation both give the same graph, and so does a fresh replay of
the recorded log (what a restarted server sees).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zerolang.memory
from zerolang.mcp.graph import KnowledgeGraph
from zerolang.util.errors import ZeroError

# names that state one concept: `Ada`/` Ada`/`ada` (normalised), `LTM`/`long term memory` (an alias)
NAMES = st.sampled_from(
    ["Ada", "ada", "Bob", "b-o-b", "日本", "?!", " Ada", "x" * 40, "LTM", "long term memory"]
)
TEXTS = st.sampled_from(["likes tea", "LIKES TEA", "", "…", "works at ACME", "ñ"])
TYPES = st.sampled_from(["person", "org", "Person"])


class Model:
    def __init__(self) -> None:
        self.entities: dict[str, dict[str, Any]] = {}
        self.relations: list[dict[str, str]] = []

    def graph(self) -> dict[str, Any]:
        return {
            "entities": [{**e, "observations": list(e["observations"])} for e in self.entities.values()],
            "relations": list(self.relations),
        }

    def run(self, op: tuple[str, Any]) -> Any:
        kind, arg = op
        if kind == "create_entities":
            new = []
            for e in arg:
                if e["name"] not in self.entities and all(n["name"] != e["name"] for n in new):
                    new.append(e)
            for e in new:
                self.entities[e["name"]] = {**e, "observations": list(e["observations"])}
            return new
        if kind == "create_relations":
            for r in arg:
                for end in (r["from"], r["to"]):
                    if end not in self.entities:
                        raise LookupError(end)
            new = []
            for r in arg:
                if r not in self.relations and r not in new:
                    new.append(r)
            self.relations += new
            return new
        if kind == "add_observations":
            for o in arg:
                if o["entityName"] not in self.entities:
                    raise LookupError(o["entityName"])
            results = []
            for o in arg:
                held = self.entities[o["entityName"]]["observations"]
                added = [
                    c for i, c in enumerate(o["contents"]) if c not in held and c not in o["contents"][:i]
                ]
                held += added
                results.append({"entityName": o["entityName"], "addedObservations": added})
            return results
        if kind == "delete_entities":
            for name in arg:
                self.entities.pop(name, None)
            self.relations = [r for r in self.relations if r["from"] not in arg and r["to"] not in arg]
            return None
        if kind == "delete_observations":
            for d in arg:
                if d["entityName"] in self.entities:
                    e = self.entities[d["entityName"]]
                    e["observations"] = [o for o in e["observations"] if o not in d["observations"]]
            return None
        self.relations = [r for r in self.relations if r not in arg]
        return None


entity = st.fixed_dictionaries(
    {"name": NAMES, "entityType": TYPES, "observations": st.lists(TEXTS, max_size=3, unique=True)}
)
relation = st.fixed_dictionaries(
    {"from": NAMES, "to": NAMES, "relationType": st.sampled_from(["knows", "works at"])}
)
operation = st.one_of(
    st.tuples(st.just("create_entities"), st.lists(entity, min_size=1, max_size=3)),
    st.tuples(st.just("create_relations"), st.lists(relation, min_size=1, max_size=2)),
    st.tuples(
        st.just("add_observations"),
        st.lists(
            st.fixed_dictionaries({"entityName": NAMES, "contents": st.lists(TEXTS, max_size=3)}), max_size=2
        ),
    ),
    st.tuples(st.just("delete_entities"), st.lists(NAMES, max_size=2)),
    st.tuples(
        st.just("delete_observations"),
        st.lists(
            st.fixed_dictionaries({"entityName": NAMES, "observations": st.lists(TEXTS, max_size=2)}),
            max_size=2,
        ),
    ),
    st.tuples(st.just("delete_relations"), st.lists(relation, max_size=2)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, max_size=8))
def test_any_sequence_matches_the_reference_semantics(
    tmp_path: Path, operations: list[tuple[str, Any]]
) -> None:
    db = tmp_path / f"kg-{secrets.token_hex(8)}.db"  # a new store each run: a replayed example too
    model = Model()
    with zerolang.memory.open(db) as memory:
        graph = KnowledgeGraph(memory)
        for op in operations:
            kind, arg = op
            try:
                expected = model.run(op)
            except LookupError:
                with pytest.raises(ZeroError, match="not found"):
                    getattr(graph, kind)(arg)
                continue
            got = getattr(graph, kind)(arg)
            if expected is not None:
                assert got == expected
            assert graph.read_graph() == model.graph()
    with zerolang.memory.open(db, create=False) as memory:
        assert KnowledgeGraph(memory).read_graph() == model.graph()


def test_deleting_one_spelling_keeps_the_fact_another_still_states(tmp_path: Path) -> None:
    """`Ada` and ` Ada` name one concept, so `b-o-b knows Ada` and `b-o-b knows  Ada` state one fact:
    deleting ` Ada` removes its relation, and the other stays, live and after a replay (found by
    the property above: the replay used to drop it with the retracted fact)."""
    db = tmp_path / "kg.db"
    entities = [
        {"name": "b-o-b", "entityType": "org", "observations": []},
        {"name": "Ada", "entityType": "Person", "observations": []},
        {"name": " Ada", "entityType": "org", "observations": []},
    ]
    kept = {"from": "b-o-b", "to": "Ada", "relationType": "knows"}
    with zerolang.memory.open(db) as memory:
        graph = KnowledgeGraph(memory)
        graph.create_entities(entities)
        graph.create_relations([kept, {"from": "b-o-b", "to": " Ada", "relationType": "knows"}])
        graph.delete_entities([" Ada"])
        assert graph.read_graph()["relations"] == [kept]
    with zerolang.memory.open(db, create=False) as memory:
        assert KnowledgeGraph(memory).read_graph()["relations"] == [kept]


def test_deleting_an_observation_keeps_the_one_an_alias_still_states(tmp_path: Path) -> None:
    """`LTM` and `long term memory` name one concept (a default alias): deleting the observation of
    one leaves the other's, live and after a replay."""
    db = tmp_path / "kg.db"
    with zerolang.memory.open(db) as memory:
        graph = KnowledgeGraph(memory)
        graph.create_entities(
            [
                {"name": "LTM", "entityType": "tier", "observations": ["likes tea"]},
                {"name": "long term memory", "entityType": "tier", "observations": ["likes tea"]},
            ]
        )
        graph.delete_observations([{"entityName": "LTM", "observations": ["likes tea"]}])
        expected = graph.read_graph()
        assert [e["observations"] for e in expected["entities"]] == [[], ["likes tea"]]
    with zerolang.memory.open(db, create=False) as memory:
        assert KnowledgeGraph(memory).read_graph() == expected


def test_a_delete_reads_the_fact_keys_of_what_it_touches_not_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O(change): the items whose fact a delete checks are those of names stating its subjects'
    concepts, however large the graph."""
    asked: list[int] = []
    keys = KnowledgeGraph._keys

    def counted(self: KnowledgeGraph, items: Any) -> Any:
        items = list(items)
        asked.append(len(items))
        return keys(self, items)

    with zerolang.memory.open(tmp_path / "kg.db") as memory:
        graph = KnowledgeGraph(memory)
        for n in range(200):
            graph.create_entities(
                [{"name": f"e{n}", "entityType": "thing", "observations": [f"o{n}", "shared"]}]
            )
        graph.create_relations([{"from": "e1", "to": "e2", "relationType": "r"}])
        monkeypatch.setattr(KnowledgeGraph, "_keys", counted)
        graph.delete_observations([{"entityName": "e1", "observations": ["shared"]}])
        graph.delete_entities(["e1"])
        assert asked and max(asked) <= 4  # e1's type, its observations and its relation
        assert [e["name"] for e in graph.read_graph()["entities"]][:2] == ["e0", "e2"]

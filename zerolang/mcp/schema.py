"""The MCP tools' argument and result types (TypedDicts: the SDK turns them into JSON Schemas).

The knowledge-graph types keep the reference memory server's field names exactly (`entityType`,
`from`, `relationType`, ...), so a client written for it reads our results unchanged.
"""

from __future__ import annotations

from typing import Any, NotRequired

from typing_extensions import TypedDict

# ---- the reference server's knowledge graph ----


class Entity(TypedDict):
    name: str
    entityType: str
    observations: list[str]


Relation = TypedDict("Relation", {"from": str, "to": str, "relationType": str})


class ObservationInput(TypedDict):
    entityName: str
    contents: list[str]


class ObservationDeletion(TypedDict):
    entityName: str
    observations: list[str]


class AddedObservations(TypedDict):
    entityName: str
    addedObservations: list[str]


class EntitiesResult(TypedDict):
    entities: list[Entity]


class RelationsResult(TypedDict):
    relations: list[Relation]


class ObservationsResult(TypedDict):
    results: list[AddedObservations]


class DeleteResult(TypedDict):
    success: bool
    message: str


class GraphResult(TypedDict):
    entities: list[Entity]
    relations: list[Relation]


# ---- zerolang's own tools ----


class Triple(TypedDict):
    subject: str
    predicate: str
    object: str
    confidence: NotRequired[float]


class TurnInput(TypedDict):
    session: str
    user_said: NotRequired[str]
    thinking: NotRequired[str]
    agent_said: NotRequired[str]
    user: NotRequired[str]
    agent: NotRequired[str]


class StoreResult(TypedDict):
    new_concepts: int
    new_facts: int
    new_episodes: int
    duplicates: int
    turns: int
    experiences: int


class GetResult(TypedDict):
    kind: str  # concept, fact or document
    hash: str
    concept: NotRequired[dict[str, Any]]
    facts: NotRequired[list[dict[str, Any]]]
    fact: NotRequired[dict[str, Any]]
    document: NotRequired[dict[str, Any]]


class Summary(TypedDict):
    hash: str
    summary: str
    t_x: int
    y_privacy: int
    z_abstraction: int
    source_channel: str
    source_session: str | None
    created_at: str


class SearchResult(TypedDict):
    summaries: list[Summary]


class RecallLine(TypedDict, total=False):
    kind: str
    text: str
    why: str
    ids: list[str]


class RecallResult(TypedDict):
    context: str
    as_of: str | None
    tokens: int
    lines: list[RecallLine]


class QueryResult(TypedDict):
    kind: str
    rows: list[dict[str, Any]]
    plan: list[str]
    notes: list[str]

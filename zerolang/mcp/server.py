"""`zero mcp`: 0-memory as agent tools, on the official MCP Python SDK (`MCPServer`).

Two tool sets over one `Memory` (one space):

- **ours**: `get` (a concept, fact or archived document by hash; documents only through the
  consent policy), `search` (archive summaries the policy releases, with filters), `store`
  (tuples, or a conversation turn), `recall` (captured experiences), `query` (the DSL), and
  `forget` when the build has `zerolang.knowledge.forget`;
- **the reference memory server's** (`create_entities` ... `open_nodes`), same names, arguments
  and results, kept in our memory by `zerolang.mcp.graph`;

and two resource templates (`zerolang.mcp.resources`): `memory://concept/{label}` and
`archive://sha256/{hash}`, the latter under the same consent policy as the tools.

Tools are coroutines that run the store calls on the event loop's thread (a SQLite connection
belongs to the thread that opened it), except `query` and `recall`, which run on `Readers`' worker
threads when the server has them (`zero mcp` does), so a long one holds up no other call. Every
result is structured (`structuredContent`, typed by `zerolang.mcp.schema`); a refusal, a bad
argument or a bug is a tool error (`isError`) whose text is one line (`refusal`).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from typing import Any

import pydantic_core
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ValidationError

from zerolang import __version__
from zerolang.mcp import schema
from zerolang.mcp.access import ArchiveAccess as ArchiveAccess
from zerolang.mcp.arguments import argument_error, renamed
from zerolang.mcp.direct import Call, Direct, Tool, tool
from zerolang.mcp.graph import KnowledgeGraph
from zerolang.mcp.prompts import add_prompts
from zerolang.mcp.readers import Readers
from zerolang.mcp.resources import add_resources
from zerolang.memory.api import FORGET_MODULE, Memory
from zerolang.util.errors import ZeroError

INSTRUCTIONS = (
    "0-memory: facts as content-addressed graphs, captured conversations, and an archive behind a "
    "consent policy. Store facts with `store` (or the knowledge-graph tools), ask with `query` "
    "(e.g. 'recall \"topic\" depth 2') and `recall`, read archived documents with `search` then `get`."
)
READ = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
WRITE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
DELETE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)


class _Server(MCPServer):
    """The SDK's server, but a call whose arguments do not fit is refused in one plain sentence, an
    argument's old name is taken for its new one (`arguments.renamed`), and a server `read_only` (the
    space a read-only token reaches, over HTTP) refuses every tool not annotated read-only; `direct`
    answers the knowledge-graph tools' plain calls over stdio (`zerolang.mcp.direct`)."""

    direct: Direct | None = None
    read_only: str | None = None

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        arguments = renamed(name, arguments)
        if self.read_only is not None and self._writes(name):
            raise ToolError(f"{name}: refused: this token may only read space {self.read_only}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError(argument_error(name, error.__cause__.errors())) from None
            raise ToolError(refusal(name, error)) from None

    def _writes(self, name: str) -> bool:
        """Whether tool `name` may change the memory (it is not annotated read-only)."""
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            return False  # the SDK says there is no such tool
        return tool.annotations is None or tool.annotations.read_only_hint is not True


def refusal(name: str, error: ToolError) -> str:
    """A failed call as one line the agent can act on: `tool: what went wrong`. Our refusals keep
    their text (without the SDK's "Error executing tool" prefix); anything else (a bug) is named by
    its class and first line, and is not logged with a traceback: the server goes on serving."""
    cause = error.__cause__
    if isinstance(cause, ZeroError):
        text = cause.headline()
    elif isinstance(cause, ToolError):
        text = str(cause)
    elif cause is not None:
        text = f"failed unexpectedly ({type(cause).__name__}: {_first_line(str(cause))})"
    else:
        text = str(error).removeprefix(f"Error executing tool {name}").removeprefix(":").strip()
    text = _first_line(text) or "failed"
    return text if text.startswith(f"{name}: ") else f"{name}: {text}"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def build_server(
    memory: Memory,
    access: ArchiveAccess | None = None,
    readers: Readers | None = None,
    *,
    read_only: bool = False,
) -> MCPServer:
    """An MCP server whose tools read and write `memory`; with `readers`, `query` and `recall` run
    on their worker threads, so a long one does not hold up other calls. `read_only`: every tool
    that writes refuses, in one line (a read-only token's server, `zerolang.mcp.http`)."""
    server = _Server("zerolang-memory", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    server.read_only = memory.space if read_only else None
    memory.store.backend.serving()  # many small commits: their checkpoints go beside the calls
    _our_tools(server, memory, access, readers)
    server.direct = Direct(_graph_tools(server, KnowledgeGraph(memory)), _text, refused)
    add_resources(server, memory, access)
    add_prompts(server)
    return server


def _failing(error: ZeroError) -> ToolError:
    return ToolError(error.message)


def _our_tools(
    server: MCPServer, memory: Memory, access: ArchiveAccess | None, readers: Readers | None
) -> None:
    async def reading(work: Callable[[Memory], Any]) -> Any:
        return work(memory) if readers is None else await readers.run(work)

    gate_cache: list[Any] = []

    def gate() -> Any:
        if access is None:
            raise ToolError(
                "the archive tools need a consent policy: start the server with --policy and --as"
            )
        if not gate_cache:
            gate_cache.append(memory.gate(access.policy))
        return gate_cache[0]

    def caller() -> Any:
        from zerolang.archive.policy import Caller

        assert access is not None
        return Caller(access.channel, access.clearance)

    @server.tool(annotations=READ)
    async def get(ref: str) -> schema.GetResult:
        """Get what `ref` names: a concept (its label, full hash or unique hash prefix) with its facts,
        a fact (its hash), or an archived document (its hash; full text, only when the consent policy
        allows it). `hash`, this argument's old name, is taken too."""
        try:
            text = ref.strip().lower()
            if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
                fact = memory.fact(text)
                if fact is not None:
                    return {"kind": "fact", "hash": text, "fact": fact.to_json()}
            view = memory.get(ref.strip())
            if view is not None:
                return {
                    "kind": "concept",
                    "hash": str(view.concept.hash),
                    "concept": dict(view.to_json()["concept"]),  # type: ignore[call-overload]
                    "facts": [fact.to_json() for fact in view.facts],
                }
            if access is None:
                raise ToolError(f"no concept or fact {ref!r} in the memory")
            document = gate().get(caller(), ref)
            return {"kind": "document", "hash": document.hash, "document": document.to_json()}
        except ZeroError as error:
            raise _failing(error) from None

    @server.tool(annotations=READ)
    async def search(
        text: str = "",
        limit: int = 10,
        since_days: int | None = None,
        session: str | None = None,
        channels: list[str] | None = None,
        privacy_max: int | None = None,
        abstraction_min: int | None = None,
        abstraction_max: int | None = None,
    ) -> schema.SearchResult:
        """Search archived memories: summaries only (never full text), newest first, that the consent
        policy releases to this server's channel. `text` words must all occur in the summary."""
        filters: dict[str, Any] = {
            "t_min": None if since_days is None else -since_days,
            "session": session,
            "channels": None if channels is None else tuple(channels),
            "privacy_max": privacy_max,
            "abstraction_min": abstraction_min,
            "abstraction_max": abstraction_max,
        }
        try:
            if limit < 1:
                raise ZeroError(f"limit must be at least 1, not {limit}")
            hits = gate().search(
                caller(), text, limit=limit, **{k: v for k, v in filters.items() if v is not None}
            )
        except ZeroError as error:
            raise _failing(error) from None
        return {"summaries": [hit.to_json() for hit in hits]}

    @server.tool(annotations=WRITE)
    async def store(
        tuples: list[schema.Triple] | None = None,
        turn: schema.TurnInput | None = None,
        source: str = "mcp",
        scope: str = "general",
    ) -> schema.StoreResult:
        """Store facts (subject, predicate, object, optional confidence 0..1, stated in one context of
        `source` and `scope`) and/or one finished conversation turn (captured as experiences)."""
        if not tuples and turn is None:
            raise ToolError("nothing to store: give tuples, a turn, or both")
        result: schema.StoreResult = {
            "new_concepts": 0,
            "new_facts": 0,
            "new_episodes": 0,
            "duplicates": 0,
            "turns": 0,
            "experiences": 0,
        }
        try:
            if tuples:
                rows = [(t["subject"], t["predicate"], t["object"], t.get("confidence", 1.0)) for t in tuples]
                inserted = memory.remember(rows, source=source, scope=scope)
                result.update(inserted.to_json())  # type: ignore[typeddict-item]
            if turn is not None:
                added = memory.capture(
                    session=turn["session"],
                    user_said=turn.get("user_said", ""),
                    thinking=turn.get("thinking", ""),
                    agent_said=turn.get("agent_said", ""),
                    user=turn.get("user", "user"),
                    agent=turn.get("agent", "assistant"),
                )
                result["turns"], result["experiences"] = added.turns, added.experiences
        except ZeroError as error:
            raise _failing(error) from None
        return result

    @server.tool(annotations=READ)
    async def recall(
        text: str, limit: int = 10, budget: int | None = None, explain: bool = False, ids: bool = False
    ) -> schema.RecallResult:
        """Answer a question in plain words from the stored facts and the captured conversations
        together: `context` is plain lines for a model (facts, current values first and the past with
        its periods, as of a date the question names; turns as who, when, what), at most `limit`
        lines and `budget` cl100k tokens; each line's reason with `explain`, hash ids with `ids`."""
        try:
            if limit < 1:
                raise ZeroError(f"limit must be at least 1, not {limit}")
            found = await reading(
                lambda reader: reader.ask(text, budget=budget, ids=ids, explain=explain, lines=limit)
            )
        except ZeroError as error:
            raise _failing(error) from None
        return {
            "context": found.text,
            "as_of": found.at,
            "tokens": found.tokens,
            "lines": [item.to_json(explain=explain, ids=ids) for item in found.items],
        }

    @server.tool(annotations=READ)
    async def query(text: str) -> schema.QueryResult:
        """Run a 0-memory query (docs/query.md): 'recall "topic" depth 2 limit 10', 'match (?x needs ?y)'."""
        try:
            result = await reading(lambda reader: reader.query(text))
        except ZeroError as error:
            raise _failing(error) from None
        return {"kind": result.kind, "rows": result.rows, "plan": result.plan, "notes": result.notes}

    if _has_forget():

        @server.tool(annotations=DELETE)
        async def forget(
            kind: str, target: str, purge: bool = False, dry_run: bool = False
        ) -> dict[str, Any]:
            """Forget what `kind` (concept, fact, source, scope, time, space) and `target` name: the facts
            a label takes part in go, records that only name it are kept with the mention redacted;
            captured experiences that mention a forgotten concept are left out of `recall` too. `purge`
            erases the content for good (no restore). `dry_run` says what would go and be redacted
            (`labels`: the concepts) and changes nothing."""
            try:
                report = memory.forget(kind, target, purge=purge, dry_run=dry_run)
            except ZeroError as error:
                raise _failing(error) from None
            return dict(report.to_json())


def _has_forget() -> bool:
    """Whether this build has the forget work (its module), so the `forget` tool can be served."""
    try:
        return importlib.util.find_spec(FORGET_MODULE) is not None
    except (ImportError, ValueError):
        return False


def _graph_tools(server: MCPServer, graph: KnowledgeGraph) -> dict[str, Tool]:
    """The reference server's tools, registered with the SDK; and the same tools as `Direct`
    answers them (each call's structured result, built once: the SDK does not validate it again,
    see `_trusted`)."""

    def guarded(function: Any, *args: Any) -> Any:
        try:
            return function(*args)
        except ZeroError as error:
            raise _failing(error) from None

    def search(query: str) -> dict[str, Any]:
        if len(query) > 2048:
            raise ToolError("query is longer than 2048 characters")
        return guarded(graph.search_nodes, query)  # type: ignore[no-any-return]

    calls: dict[str, Call] = {
        "create_entities": lambda entities: {
            "entities": guarded(graph.create_entities, [dict(e) for e in entities])
        },
        "create_relations": lambda relations: {
            "relations": guarded(graph.create_relations, [dict(r) for r in relations])
        },
        "add_observations": lambda observations: {
            "results": guarded(graph.add_observations, [dict(o) for o in observations])
        },
        "delete_entities": lambda entityNames: {
            "success": True,
            "message": guarded(graph.delete_entities, entityNames),
        },
        "delete_observations": lambda deletions: {
            "success": True,
            "message": guarded(graph.delete_observations, [dict(d) for d in deletions]),
        },
        "delete_relations": lambda relations: {
            "success": True,
            "message": guarded(graph.delete_relations, [dict(r) for r in relations]),
        },
        "read_graph": lambda: guarded(graph.read_graph),
        "search_nodes": search,
        "open_nodes": lambda names: guarded(graph.open_nodes, names),
    }

    @server.tool(title="Create Entities", annotations=WRITE)
    async def create_entities(entities: list[schema.Entity]) -> schema.EntitiesResult:
        """Create multiple new entities in the knowledge graph"""
        return _result(calls["create_entities"](entities))  # type: ignore[return-value]

    @server.tool(
        title="Create Relations",
        annotations=WRITE,
        description="Create multiple new relations between entities in the knowledge graph."
        " Relations should be in active voice",
    )
    async def create_relations(relations: list[schema.Relation]) -> schema.RelationsResult:
        return _result(calls["create_relations"](relations))  # type: ignore[return-value]

    @server.tool(title="Add Observations", annotations=WRITE)
    async def add_observations(observations: list[schema.ObservationInput]) -> schema.ObservationsResult:
        """Add new observations to existing entities in the knowledge graph"""
        return _result(calls["add_observations"](observations))  # type: ignore[return-value]

    @server.tool(title="Delete Entities", annotations=DELETE)
    async def delete_entities(entityNames: list[str]) -> schema.DeleteResult:
        """Delete multiple entities and their associated relations from the knowledge graph"""
        return _result(calls["delete_entities"](entityNames))  # type: ignore[return-value]

    @server.tool(title="Delete Observations", annotations=DELETE)
    async def delete_observations(deletions: list[schema.ObservationDeletion]) -> schema.DeleteResult:
        """Delete specific observations from entities in the knowledge graph"""
        return _result(calls["delete_observations"](deletions))  # type: ignore[return-value]

    @server.tool(title="Delete Relations", annotations=DELETE)
    async def delete_relations(relations: list[schema.Relation]) -> schema.DeleteResult:
        """Delete multiple relations from the knowledge graph"""
        return _result(calls["delete_relations"](relations))  # type: ignore[return-value]

    @server.tool(title="Read Graph", annotations=READ)
    async def read_graph() -> schema.GraphResult:
        """Read the entire knowledge graph"""
        return _result(calls["read_graph"]())  # type: ignore[return-value]

    @server.tool(title="Search Nodes", annotations=READ)
    async def search_nodes(query: str) -> schema.GraphResult:
        """Search for nodes in the knowledge graph based on a query"""
        return _result(calls["search_nodes"](query))  # type: ignore[return-value]

    @server.tool(title="Open Nodes", annotations=READ)
    async def open_nodes(names: list[str]) -> schema.GraphResult:
        """Open specific nodes in the knowledge graph by their names"""
        return _result(calls["open_nodes"](names))  # type: ignore[return-value]

    registered: dict[str, Callable[..., Any]] = {
        "create_entities": create_entities,
        "create_relations": create_relations,
        "add_observations": add_observations,
        "delete_entities": delete_entities,
        "delete_observations": delete_observations,
        "delete_relations": delete_relations,
        "read_graph": read_graph,
        "search_nodes": search_nodes,
        "open_nodes": open_nodes,
    }
    _trusted(server, GRAPH_TOOLS)
    return {name: tool(calls[name], registered[name]) for name in GRAPH_TOOLS}


GRAPH_TOOLS = (
    "create_entities",
    "create_relations",
    "add_observations",
    "delete_entities",
    "delete_observations",
    "delete_relations",
    "read_graph",
    "search_nodes",
    "open_nodes",
)


def _text(structured: dict[str, Any]) -> str:
    """A result's text content, as the SDK writes it: its structured content as indented JSON."""
    return pydantic_core.to_json(structured, fallback=str, indent=2).decode()


def _result(structured: dict[str, Any]) -> CallToolResult:
    """A tool result with its structured content and, as the SDK writes it, the same as JSON text."""
    text = TextContent(type="text", text=_text(structured))
    return CallToolResult(content=[text], structured_content=structured)


def refused(name: str, error: BaseException) -> str:
    """The one-line tool error the SDK path makes of what a tool raised (it wraps it as a
    `ToolError` whose cause is the original, then `_Server.call_tool` says it with `refusal`)."""
    wrapper = ToolError(f"Error executing tool {name}: {error}")
    wrapper.__cause__ = error
    return refusal(name, wrapper)


def _trusted(server: MCPServer, names: tuple[str, ...]) -> None:
    """Tools whose results are built here in their declared shape: the SDK still publishes their
    output schema but no longer validates each result against it (a pass over the whole graph per
    `read_graph`). Where the SDK has no such tool table, it keeps validating: slower, as correct."""
    manager = getattr(server, "_tool_manager", None)
    for name in names:
        tool = manager.get_tool(name) if manager is not None else None
        metadata = getattr(tool, "fn_metadata", None)
        if metadata is not None and getattr(metadata, "output_schema", None) is not None:
            metadata.output_model = None
            metadata.output_schema = inlined(metadata.output_schema)


def inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with each `$ref` to its own `$defs` replaced by the definition (none of ours is
    recursive): the same constraints, but a client that validates each result (the SDK's does,
    with `jsonschema`) no longer resolves a reference per entity and relation."""
    definitions = schema.get("$defs", {})

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            name = ref.removeprefix("#/$defs/")
            if name in definitions and name not in seen:
                return walk(definitions[name], (*seen, name))
            return node
        return {key: walk(value, seen) for key, value in node.items() if key != "$defs"}

    out: dict[str, Any] = walk(schema, ())
    if "$ref" in json.dumps(out):  # a recursive definition: keep the original
        return schema
    return out

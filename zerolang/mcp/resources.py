"""`zero mcp`'s resources: concepts and archived documents by URI, as the tools give them.

- `memory://concept/{label}`: a concept (label, hash or unique hash prefix; percent-encoded in
  the URI) with its facts, as the `get` tool gives it (JSON);
- `archive://sha256/{hash}`: an archived document, only through the same consent policy and
  channel as the `get` tool (`Gate.get`): a server started without `--policy`/`--as` refuses,
  and a document the policy does not release is refused as a hash never archived.

A refusal is a `ResourceError` whose text is our one-line message.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from zerolang.mcp.access import ArchiveAccess
from zerolang.memory.api import Memory
from zerolang.util.errors import ZeroError

CONCEPT = "memory://concept/{label}"
DOCUMENT = "archive://sha256/{hash}"


def add_resources(server: MCPServer, memory: Memory, access: ArchiveAccess | None) -> None:
    gates: list[Any] = []

    @server.resource(
        CONCEPT,
        name="concept",
        title="A concept and its facts",
        description="A concept of the memory (by label, hash or unique hash prefix) with every fact"
        " it takes part in.",
        mime_type="application/json",
    )
    async def concept(label: str) -> str:
        name = unquote(label)
        try:
            view = memory.get(name)
        except ZeroError as error:
            raise ResourceError(error.message) from None
        if view is None:
            raise ResourceError(f"no concept {name!r} in the memory")
        document = {
            "hash": str(view.concept.hash),
            "concept": view.to_json()["concept"],
            "facts": [fact.to_json() for fact in view.facts],
        }
        return json.dumps(document, ensure_ascii=False)

    @server.resource(
        DOCUMENT,
        name="document",
        title="An archived document",
        description="An archived document by its SHA-256, only when the server's consent policy"
        " releases it to the server's channel.",
        mime_type="application/json",
    )
    async def document(hash: str) -> str:
        if access is None:
            raise ResourceError(
                "archived documents need a consent policy: start the server with --policy and --as"
            )
        from zerolang.archive.policy import Caller

        try:
            if not gates:
                gates.append(memory.gate(access.policy))
            found = gates[0].get(Caller(access.channel, access.clearance), unquote(hash))
        except ZeroError as error:
            raise ResourceError(error.message) from None
        return json.dumps(found.to_json(), ensure_ascii=False)

"""A session with `zero mcp`: start it over stdio, as an MCP client does, and call a few tools.

    python examples/mcp_session.py /tmp/agent.db

Needs the `mcp` extra (pip install 'zerolang[mcp]'). docs/mcp.md and the README show what it prints.
"""

from __future__ import annotations

import json
import os
import sys

import anyio
from mcp import Client, StdioServerParameters


async def session(db: str) -> None:
    arguments = ["-m", "zerolang", "mcp", "--db", db]
    server = StdioServerParameters(command=sys.executable, args=arguments, env=dict(os.environ))
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
        print(f"{len(tools)} tools:", ", ".join(sorted(tool.name for tool in tools)))
        calls: list[tuple[str, dict[str, object]]] = [
            (
                "create_entities",
                {"entities": [{"name": "Ada", "entityType": "person", "observations": ["writes compilers"]}]},
            ),
            ("add_observations", {"observations": [{"entityName": "Ada", "contents": ["likes graphs"]}]}),
            ("store", {"tuples": [{"subject": "Ada", "predicate": "works_on", "object": "zerolang"}]}),
            ("query", {"text": "match (Ada ?p ?o) order by ?p"}),
            ("delete_observations", {"deletions": [{"entityName": "Ada", "observations": ["likes graphs"]}]}),
            ("search_nodes", {"query": "compilers"}),
        ]
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            content = result.structured_content
            if name == "query" and content is not None:
                content = {"rows": [row["bindings"] for row in content["rows"]]}  # type: ignore[index]
            print(f"> {name} {json.dumps(arguments)}")
            print(f"< {json.dumps(content)}")


if __name__ == "__main__":
    anyio.run(session, sys.argv[1] if len(sys.argv) > 1 else "agent.db")

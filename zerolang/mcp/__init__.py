"""0-memory as agent tools over MCP (`zero mcp`; needs the `mcp` extra).

- `graph`: the reference memory server's knowledge graph, as recorded operations in our memory;
- `schema`: the tools' typed arguments and results;
- `server`: the MCP server (the official SDK's `MCPServer`) with both tool sets.
"""

"""Memory where agents already run: hooks, client configurations and framework adapters.

- `capture` / `context`: what every hook does (capture a transcript's new turns; recall within a
  token budget, for a model's context);
- `claude_code`: Claude Code's hook events (`zero hook claude-code`) and its settings file
  (`zero hook install claude-code`);
- `pi`: pi's extension events (`zero hook pi`, and the extension file that calls it);
- `clients`: the MCP configuration each client expects (`zero mcp --print-config`);
- `openai_agents` (extra `openai-agents`): `ZeroSession`, an Agents SDK session on conversation
  memory (`items` maps the SDK's items);
- `langgraph_store` (extra `langgraph`): `ZeroStore`, a LangGraph `BaseStore` on the entry store
  (`namespaces` keys and filters). These import their framework only when used.

This layer sits above the public Python API (`zerolang.memory`) and below the CLI.
"""

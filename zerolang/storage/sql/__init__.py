"""The SQL SQLite and PostgreSQL share, written once with `?` placeholders (see `core`).

Each memory part but `core`, `seals` and `index` is a mixin implementing the role of
`zerolang.knowledge.backend` it is named after:

- `core`: what every part runs its SQL on (`SqlStatements`: `rows`, `in_list`, transactions), and
  a memory backend's `SqlCore` (the space, and the `Lifetime` role, which a dialect completes);
- `records`: writing records by the merge plan, and reading concepts, facts, episodes by key;
- `traversal`: the facts around concepts, as recall's BFS reads them;
- `scans`: the whole space in hash order;
- `tiers`: working memory, access counts, semantic memory, pruning;
- `forgetting`: tombstones, removing what they forget and blocking its return;
- `temporal`: bi-temporal fact times and the fact history log;
- `integrity`: the sealed rows as stored, which `zerolang.knowledge.check` verifies;
- `log`: the space's event log;
- `seals`: the table seals every write keeps (the parts that write stand on it);
- `index`: the archive's summary index (`memory_index`), the backend's `.index`;
- `database`, `fulltext`: the experience database as its stores see it, and what an engine's
  full text gives them;
- `experiences`, `conversations`: the experience store and the conversation store, once for
  every engine.

The memory backend that joins the mixins is `backend.SqlBackend`; this package imports nothing,
so the experience and conversation stores load none of the memory's SQL.
"""

"""Documents the language server tests open: written the way people write `.0`, not canonically."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ROUTER = (ROOT / "examples" / "router.0").read_text(encoding="utf-8")
MEMORY_L2 = (ROOT / "tests" / "tools" / "highlight" / "samples" / "memory_l2.0c").read_text(encoding="utf-8")

# Two problems with fixes (`op: Eq`, an unused node) and one without (an input naming no node),
# in a style the formatter would change (two-space indent, quoted keys, a one-line node).
GREETER = """\
# greeter.0
Graph {
  "name": "greeter",
  nodes: [
    { id: "message", type: External, uri: "input://message" },
    {
      id: "hello",
      type: Constant,
      value: "hello",
    },
    { id: "same", type: Operation, op: Eq, inputs: ["message", "hello"] },  # is it a greeting?
    { id: "unused", type: Constant, value: 1 },
    { id: "reply", type: Operation, op: Concat, inputs: ["hello", "message"], params: { separator: ", " } },
  ],
  outputs: ["same", "reply"],
}
"""

"""Small edits of the syntax tree that fixes are made of.

Fixes never touch text: they change the tree, and the canonical printer
writes the file again, so a fix cannot leave a dangling comma or break a
string. Entries keep their comments when they move.
"""

from __future__ import annotations

from zerolang.syntax.ast import Array, Entry, Graph, Map, Node, String, Value

# Where a new entry goes when nothing better is known: the canonical order of node fields.
NODE_ORDER = ("id", "type", "op", "inputs", "params")


def identifier(name: str) -> String:
    """A value printed bare, as `type` and `op` values are."""
    return String(name, bare=True)


def insert_entry(target: Map, entry: Entry, after: tuple[str, ...] = NODE_ORDER) -> None:
    """Insert `entry` after the last present key among `after` (else first)."""
    position = 0
    for index, existing in enumerate(target.entries):
        if existing.key in after:
            position = index + 1
    target.entries.insert(position, entry)


def set_entry(target: Map, key: str, value: Value, after: tuple[str, ...] = NODE_ORDER) -> None:
    """Replace the value of `key`, or add the entry at its canonical place."""
    if target.entry(key) is not None:
        target.set(key, value)
    else:
        insert_entry(target, Entry(key=key, value=value), after)


def rename_key(entry: Entry, key: str) -> None:
    """Rename one entry in place, keeping its position and comments."""
    entry.key = key
    entry.key_quoted = False


def append_input(node: Node, reference: str) -> None:
    """Add a reference to `inputs`, creating the list where it belongs when there is none."""
    inputs = node.get("inputs")
    if isinstance(inputs, Array):
        inputs.items.append(String(reference))
    else:
        set_entry(node, "inputs", Array(items=[String(reference)]), after=("id", "type", "op"))


def move_into_params(node: Node, entry: Entry) -> None:
    """Move a node-level entry into `params` (created after `inputs` if missing), comments and all."""
    node.entries.remove(entry)
    params = node.get("params")
    if not isinstance(params, Map):
        params = Map()
        insert_entry(node, Entry(key="params", value=params))
    entry.blank_before = False
    if params.entry(entry.key) is None:
        params.entries.append(entry)


def remove_node(graph: Graph, node: Node) -> None:
    """Remove a node; comments written above it stay, above whatever follows."""
    nodes = graph.get("nodes")
    if not isinstance(nodes, Array):
        return
    index = next((i for i, item in enumerate(nodes.items) if item is node), None)
    if index is None:
        return
    del nodes.items[index]
    if node.leading:
        if index < len(nodes.items):
            following = nodes.items[index]
            following.leading[:0] = node.leading
            following.blank_before = following.blank_before or node.blank_before
        else:
            nodes.dangling[:0] = node.leading

"""Z020: a key written twice in one map, node, struct or the graph."""

from __future__ import annotations

from collections.abc import Iterator

from zerolang.runtime.validator import duplicate_key_message
from zerolang.syntax.ast import Entry, Graph, Map, walk
from zerolang.tools.lint.context import Context
from zerolang.tools.lint.model import Applicability, Fix, Violation, rule
from zerolang.util import codes
from zerolang.util.errors import Severity


@rule(codes.DUPLICATE_KEY, Severity.ERROR, Applicability.UNSAFE)
def duplicate_key(context: Context) -> Iterator[Violation]:
    """A key written twice in one map (`value: 1, value: 2`, `op: ToUpper, op: ToLower`).

    Which of the two values is meant is not written anywhere: readers that
    let the last one win, as JSON parsers often do, run a graph its author
    may never have meant, and `check` would say nothing. So the graph does
    not run until one is deleted. The fix keeps the last one (what such a
    reader ran) and deletes the others; an editor also offers keeping the
    first. Both are unsafe: each picks a meaning the file does not state.
    """
    for value in walk(context.graph):
        if not isinstance(value, Map):
            continue
        seen: dict[str, Entry] = {}
        for entry in value.entries:
            first = seen.setdefault(entry.key, entry)
            if first is not entry:
                fix = _keep(value, entry.key, last=True)
                fix = Fix(
                    fix.description,
                    fix.edit,
                    fix.applicability,
                    fix.touches,
                    alternatives=(_keep(value, entry.key, last=False),),
                )
                yield Violation(duplicate_key_message(first, entry), entry.key_span, fix)


def _keep(target: Map, key: str, *, last: bool) -> Fix:
    """Delete every entry named `key` but the first or the last one; says which value stays."""
    entries = [entry for entry in target.entries if entry.key == key]
    kept = entries[-1] if last else entries[0]
    span = kept.key_span
    which = "last" if last else "first"
    description = (
        f"keep the {which} `{key}` (at {span.line}:{span.column}) and delete the other"
        f"{'s' if len(entries) > 2 else ''}: the graph then means that value"
    )

    def edit(graph: Graph) -> None:
        target.entries = [entry for entry in target.entries if entry.key != key or entry is kept]

    return Fix(description, edit, Applicability.UNSAFE, touches=(target,))

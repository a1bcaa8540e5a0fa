"""What `zero completion` offers for a value: rule codes after `--select`, `--ignore` and `--explain`,
op and node type names after `zero ops` (typer's `autocompletion`: each is called with what was
typed so far and returns (value, help) pairs; a shell that shows help, as zsh and fish do, shows it)."""

from __future__ import annotations


def rule_codes(incomplete: str) -> list[tuple[str, str]]:
    """The rule codes (and `ALL`) that start with the last comma-separated part typed: `Z01` offers
    Z010 to Z019, `Z008,Z01` offers `Z008,Z010`..."""
    from zerolang.tools.lint.selection import ALL, all_codes
    from zerolang.util.codes import CODES

    head, comma, last = incomplete.rpartition(",")
    before = head + comma
    wanted = last.strip().upper()
    offered = [(ALL, "every rule")] + [(code, CODES[code].name) for code in all_codes() if code in CODES]
    return [(before + code, name) for code, name in offered if code.startswith(wanted)]


def op_names(incomplete: str) -> list[tuple[str, str]]:
    """The builtin ops and node types whose name starts with what was typed (any case), with their first
    line of documentation."""
    from zerolang.runtime.builtins import OPERATIONS
    from zerolang.runtime.catalog import NODE_TYPES

    wanted = incomplete.lower()
    names = [(name, _first_line(op.doc)) for name, op in OPERATIONS.items()]
    names += [(name, _first_line(kind.doc)) for name, kind in NODE_TYPES.items()]
    return sorted((name, doc) for name, doc in names if name.lower().startswith(wanted))


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().split("\n", 1)[0]

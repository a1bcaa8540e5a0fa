"""`zero ops`: the builtin ops (and node types) with their docs."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.completers import op_names
from zerolang.cli.options import JSON
from zerolang.cli.typer_options import option


def ops(
    name: Annotated[
        str | None,
        typer.Argument(
            help="One op or node type to describe in full (aliases work: `Eq`).",
            show_default=False,
            autocompletion=op_names,
        ),
    ] = None,
    as_json: Annotated[bool, option(JSON.detailed("Its shape: a list of the ops, or the one op."))] = False,
) -> None:
    """List the builtin ops with what each reads and does, or describe one."""
    import json

    from zerolang.runtime.builtins import OPERATIONS, Operation
    from zerolang.tools.opdocs import closest, describe, listing, lookup, to_json
    from zerolang.util.errors import ZeroError

    if name is None:
        if as_json:
            typer.echo(json.dumps([to_json(op) for op in OPERATIONS.values()], indent=2, ensure_ascii=False))
        else:
            typer.echo("\n".join(listing()))
        return
    found = lookup(name)
    if found is None:
        hint = closest(name)
        meant = f": did you mean `{hint}`?" if hint else " (`zero ops` lists them)"
        raise ZeroError(f"`{name}` is neither a builtin op nor a node type{meant}")
    if as_json:
        if not isinstance(found, Operation):
            raise ZeroError(f"`{found.name}` is a node type: --json describes ops only")
        typer.echo(json.dumps(to_json(found), indent=2, ensure_ascii=False))
        return
    text = describe(found.name) or ""
    if found.name != name:
        text = f"(`{name}` means {found.name}; write `{found.name}` in a graph)\n\n{text}"
    typer.echo(text)

"""`zero query "..."`: run a 0-memory query (docs/query.md) against the memory database."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.memory_cmd import DbOption, NowOption, SpaceOption


def query(
    text: Annotated[
        str, typer.Argument(help="The query, e.g. 'recall \"agent\" depth 2 limit 10'.", metavar="QUERY")
    ],
    db: DbOption = None,
    space: SpaceOption = "default",
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as a JSON list.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show the plan and every score factor.")] = False,
    now: NowOption = None,
    no_touch: Annotated[
        bool,
        typer.Option("--no-touch", help="Do not record the access (the store is left exactly as it was)."),
    ] = False,
) -> None:
    """Recall from a concept or match triple patterns in the memory database."""
    from zerolang.cli.query_exec import execute

    execute(text, db, space, as_json=as_json, explain=explain, now=now, no_touch=no_touch)

"""`zero query "..."`: run a 0-memory query (docs/query.md) against the memory database."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.options import EXPLAIN, JSON, NO_TOUCH
from zerolang.cli.typer_options import DbOption, NowOption, SpaceOption, option
from zerolang.util.spaces import DEFAULT_SPACE


def query(
    text: Annotated[
        str, typer.Argument(help="The query, e.g. 'recall \"agent\" depth 2 limit 10'.", metavar="QUERY")
    ],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    as_json: Annotated[
        bool, option(JSON.detailed("Its shape: the list of results; {plan, results} with --explain."))
    ] = False,
    explain: Annotated[bool, option(EXPLAIN)] = False,
    now: NowOption = None,
    no_touch: Annotated[bool, option(NO_TOUCH)] = False,
) -> None:
    """Recall from a concept or match triple patterns in the memory database."""
    from zerolang.cli.query_exec import execute

    execute(text, db, space, as_json=as_json, explain=explain, now=now, no_touch=no_touch)

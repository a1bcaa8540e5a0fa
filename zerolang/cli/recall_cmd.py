"""`zero recall "QUESTION" [--budget N]`: what the facts and the conversations say, in one context."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from zerolang.cli.experience_store import stores_of
from zerolang.cli.options import EXPLAIN, IDS, JSON
from zerolang.cli.typer_options import DbOption, ExperiencesOption, NowOption, SettledSpaceOption, option


def recall(
    text: Annotated[str, typer.Argument(help="What to recall, in your own words.", show_default=False)],
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, metavar="TOKENS", help="Print at most this many cl100k tokens."),
    ] = None,
    db: DbOption = None,
    space: SettledSpaceOption = None,
    experiences: ExperiencesOption = None,
    as_json: Annotated[
        bool, option(JSON.detailed("Its lines carry the text; it keeps within the budget too."))
    ] = False,
    explain: Annotated[
        bool, option(EXPLAIN.detailed("Here: why each line was found, not counted in the budget."))
    ] = False,
    ids: Annotated[bool, option(IDS)] = False,
    now: NowOption = None,
) -> None:
    """Answer a question from the facts and the conversations together, in one context.

    Facts (the memory --db names) come as lines, current values first and the past with its
    periods; a date in the question reads them as of then. Conversation turns (the memory's own,
    or --experiences) come as who, when, what. No hash ids unless --ids.
    """
    from zerolang.cli.recall_exec import answer_question

    stores = stores_of(db, space=space, experiences=experiences)
    rendering = answer_question(
        text, stores=stores, budget=budget, ids=ids, explain=explain, now=now, as_json=as_json
    )
    if as_json:
        sys.stdout.write(rendering.json + "\n")
        return
    from zerolang.util.escapes import escaped_lines  # stored text is data: shown escaped, lines kept

    sys.stdout.write(escaped_lines(rendering.explained() if explain else rendering.text, exact=False))
    if sys.stderr.isatty():
        total = f" of {budget}" if budget is not None else ""
        sys.stderr.write(
            f"{len(rendering.items)} of {rendering.offered} lines, {rendering.tokens}{total} tokens\n"
        )

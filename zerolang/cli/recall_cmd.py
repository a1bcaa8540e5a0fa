"""`zero recall "TEXT" [--budget N]`: what captured conversations say about TEXT, within a budget."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from zerolang.cli.experience_store import open_store, read_hiding_purges, stores_of
from zerolang.cli.options import JSON
from zerolang.cli.typer_options import DbOption, ExperiencesOption, SettledSpaceOption, option


def recall(
    text: Annotated[str, typer.Argument(help="What to recall, in your own words.", show_default=False)],
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, metavar="TOKENS", help="Print at most this many cl100k tokens."),
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, metavar="N", help="How many experiences to rank.")
    ] = 20,
    db: DbOption = None,
    space: SettledSpaceOption = None,
    experiences: ExperiencesOption = None,
    as_json: Annotated[bool, option(JSON.detailed("It keeps within the budget too."))] = False,
) -> None:
    """Recall experiences: the graph index of the hits, short summaries, and full text for the best that fit.

    The query enters by full-text search and expands through the graph (the same
    turn, the turns next to it, shared concepts); each hit says why it was found.
    """
    from zerolang.experience.budget import render
    from zerolang.experience.recall import recall as run_recall
    from zerolang.util.errors import ZeroError

    if not text.strip():
        raise ZeroError("nothing to recall: the query is empty")
    stores = stores_of(db, space=space, experiences=experiences)
    with open_store(stores, create=False) as opened:
        store = read_hiding_purges(stores, opened)  # what the memory purged stays out, even here
        hits = run_recall(store, text, limit=limit)
        rendering = render(store, text, hits, budget=budget, as_json=as_json)
    if budget is not None and not rendering.text:
        raise ZeroError(f"--budget {budget} is too small: even the heading does not fit")
    if as_json:
        sys.stdout.write(rendering.text)
    else:  # transcript text is data: shown escaped, its line breaks kept
        from zerolang.util.escapes import escaped_lines

        sys.stdout.write(escaped_lines(rendering.text, exact=False))
    if not as_json and sys.stderr.isatty():
        held = len(rendering.held(("full",)))
        total = f" of {budget}" if budget is not None else ""
        sys.stderr.write(f"{len(hits)} hits, {held} in full, {rendering.tokens}{total} tokens\n")

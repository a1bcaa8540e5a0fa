"""`zero remember SUBJECT PREDICATE OBJECT`: one fact from the shell, stated now, from `cli`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from zerolang.cli.typer_options import DbOption, JsonOption, NowOption, SpaceOption
from zerolang.util.spaces import DEFAULT_SPACE


def remember(
    subject: Annotated[
        str, typer.Argument(metavar="SUBJECT", help="Who or what the fact is about.", show_default=False)
    ],
    predicate: Annotated[
        str,
        typer.Argument(metavar="PREDICATE", help="How they relate (works_at, likes).", show_default=False),
    ],
    obj: Annotated[str, typer.Argument(metavar="OBJECT", help="The value.", show_default=False)],
    confidence: Annotated[
        float, typer.Option("--confidence", min=0.0, max=1.0, help="How sure the statement is (0 to 1).")
    ] = 1.0,
    source: Annotated[str, typer.Option("--source", help="Who or what stated it.")] = "cli",
    scope: Annotated[str, typer.Option("--scope", help="The scope it was stated in.")] = "general",
    at: Annotated[
        str | None,
        typer.Option("--at", metavar="TIME", help="When it became true (ISO 8601; default: now)."),
    ] = None,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    now: NowOption = None,
    as_json: JsonOption = False,
) -> None:
    """Remember one fact: SUBJECT PREDICATE OBJECT, stated now (or --at) from the shell.

    A fact already held is stated again (one more episode of it); on a single-valued predicate a new
    object supersedes the old one from its start, kept in the history.
    """
    import json

    from zerolang.memory import open_memory
    from zerolang.memory.upkeep import store_time

    event = None if at is None else store_time(at, "--at")
    with open_memory(db, space=space) as memory:
        done = memory.remember(
            [(subject, predicate, obj, confidence)], source=source, scope=scope, event_time=event, now=now
        )
    if as_json:
        sys.stdout.write(
            json.dumps(
                {
                    "fact": [subject, predicate, obj],
                    "new_facts": done.new_facts,
                    "new_concepts": done.new_concepts,
                    "new_episodes": done.new_episodes,
                    "duplicates": done.duplicates,
                    "forgotten": done.forgotten,
                }
            )
            + "\n"
        )
        return
    from zerolang.util.escapes import escaped

    said = f"{escaped(subject)} {escaped(predicate)} {escaped(obj)}"
    if done.forgotten:
        what = "not stored: it was forgotten"
    elif done.new_facts:
        what = "a new fact"
    elif done.new_episodes:
        what = "stated again"
    else:
        what = "already stated so"
    sys.stdout.write(f"remembered {said}: {what}\n")

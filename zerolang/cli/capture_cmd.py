"""`zero capture FILE...`: store agent transcripts as experiences (three layers per turn)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from zerolang.cli.options import JSON
from zerolang.cli.typer_options import DbOption, ExperiencesOption, SettledSpaceOption, option


def capture(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Transcripts (pi, Claude Code, OpenAI chat JSON/JSONL) or folders of them.",
            show_default=False,
        ),
    ],
    db: DbOption = None,
    space: SettledSpaceOption = None,
    experiences: ExperiencesOption = None,
    as_json: Annotated[
        bool, option(JSON.detailed("Its shape: {turns, experiences, concepts, edges}, what was added."))
    ] = False,
    user: Annotated[
        str | None, typer.Option("--user", metavar="NAME", help="Who the user is (default: user).")
    ] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", metavar="NAME", help="Who the agent is (default: assistant).")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", metavar="FORMAT", help="pi, claude-code or openai (default: read from the content)."
        ),
    ] = None,
) -> None:
    """Capture transcripts as experiences: what was said, thought and answered in each turn.

    Every file is read before anything is stored; capturing again adds only what is new.
    """
    from zerolang.cli.capture_exec import execute
    from zerolang.cli.experience_store import stores_of

    stores = stores_of(db, space=space, experiences=experiences)
    execute(files, stores, as_json=as_json, user=user, agent=agent, fmt=fmt)

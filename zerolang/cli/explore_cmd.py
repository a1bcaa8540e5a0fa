"""`zero explore`: the memory explorer, a local web page over the stores the other commands use."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.typer_options import DbOption, ExperiencesOption, PolicyOption, RootOption, SpaceOption
from zerolang.util.spaces import DEFAULT_SPACE

# Not imported from zerolang.explore.serve: `zero explore --help` must not need the explore extra.
LOOPBACK, DEFAULT_PORT = "127.0.0.1", 8765


def explore(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    experiences: ExperiencesOption = None,
    root: RootOption = None,
    policy: PolicyOption = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDRESS",
            help="Listen on this address. Default: 127.0.0.1 (this machine only); any other is warned about.",
        ),
    ] = LOOPBACK,
    port: Annotated[
        int, typer.Option("--port", metavar="N", help="Listen on this port (0: any free one).")
    ] = DEFAULT_PORT,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the web browser.")] = False,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Show forget, restore and retract buttons (they change the memory). Default: read-only.",
        ),
    ] = False,
) -> None:
    """Explore the memory in the browser: spaces, search, concepts over time, the graph, experiences.

    Serves a local web page for the space's memory, its experiences and archive (found as the other
    commands find them): search with the ranking explained, each concept's facts, sources and
    timeline, its neighbourhood graph, conversations by turn, the budgeted context an agent gets, and
    the archive as a caller's consent allows. Read-only unless --write. Needs the `explore` extra:
    python -m pip install ".[explore]" in a clone of zerolang.
    """
    import sys

    from zerolang.memory.api import open_memory
    from zerolang.util.errors import ZeroError
    from zerolang.util.escapes import escaped

    try:
        from zerolang.explore.app import build_app
        from zerolang.explore.reads import Explorer
        from zerolang.explore.serve import hosts_for, is_loopback, listen, run
        from zerolang.explore.worker import Worker
    except ImportError as error:
        from zerolang.util.extras import install_hint

        missing = (error.name or "starlette").split(".")[0]
        raise ZeroError(f"zero explore needs {missing}: {install_hint('explore')}") from None
    if policy is not None:
        from zerolang.archive.policy import load_policy

        load_policy(policy)  # a bad policy stops here, before anything is served

    def opened() -> Explorer:
        memory = open_memory(db, space=space, experiences=experiences, archive=root, create=False)
        return Explorer(memory, write=write, policy=policy)

    listening = listen(host, port)
    try:
        with Worker(opened) as worker:
            if not is_loopback(host):
                sys.stderr.write(
                    f"warning: listening on {escaped(host)}: anyone who reaches it can read this memory"
                    + (" and change it (--write)" if write else "")
                    + "\n"
                )
            where = escaped(str(worker.explorer.memory.stores.memory))
            mode = "write" if write else "read-only"
            sys.stderr.write(
                f"exploring space {escaped(worker.explorer.space)} of {where} ({mode}) at {listening.url}\n"
            )
            if open_browser:
                import webbrowser

                webbrowser.open(listening.url)
            run(build_app(worker, hosts_for(host)), listening)
    finally:
        listening.socket.close()

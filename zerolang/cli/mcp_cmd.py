"""`zero mcp`: serve 0-memory to agents as MCP tools over stdin and stdout."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from zerolang.cli.archive_cmd import ClearanceOption, RootOption
from zerolang.cli.experience_store import DB_ENV as EXPERIENCE_DB_ENV
from zerolang.cli.memory_cmd import DbOption, SpaceOption


def mcp(
    db: DbOption = None,
    space: SpaceOption = "default",
    experiences: Annotated[
        Path | None,
        typer.Option(
            "--experiences",
            envvar=EXPERIENCE_DB_ENV,
            show_envvar=True,
            metavar="PATH",
            help="Where `store` captures turns and `recall` looks (as zero capture --db).",
        ),
    ] = None,
    root: RootOption = None,
    policy: Annotated[
        Path | None,
        typer.Option(
            "--policy",
            metavar="FILE",
            help="The consent policy `get` and `search` obey. Default: memory.archive.policy.",
        ),
    ] = None,
    as_channel: Annotated[
        str | None,
        typer.Option("--as", metavar="CHANNEL", help="The channel the agent speaks from (with a policy)."),
    ] = None,
    clearance: ClearanceOption = None,
) -> None:
    """Serve memory to agents over MCP (stdio): get, search, store, recall, query, and the
    reference memory server's knowledge-graph tools.

    Clients start it (see the README for a configuration). The archive tools (`get` of a
    document, `search`) answer only with a consent policy and a channel. Needs the `mcp`
    extra: pip install 'zerolang[mcp]'.
    """
    from zerolang.archive.settings import memory_settings_for
    from zerolang.cli.archive_cmd import resolve_root
    from zerolang.cli.experience_store import default_path
    from zerolang.cli.stores import _open
    from zerolang.memory.api import Memory
    from zerolang.util.errors import ZeroError

    try:
        from zerolang.mcp.server import ArchiveAccess, build_server
    except ImportError as error:
        missing = (error.name or "mcp").split(".")[0]
        raise ZeroError(f"zero mcp needs {missing}: pip install 'zerolang[mcp]'") from None
    if policy is not None and as_channel is None:
        raise ZeroError("--policy and --as go together: a policy says what a channel may see")
    # a configured policy (memory.archive.policy) serves the archive only to a server started --as
    rules = (policy or memory_settings_for().archive_policy) if as_channel is not None else None
    if as_channel is not None and rules is None:
        raise ZeroError("--as needs a consent policy: pass --policy FILE or set memory.archive.policy")
    if rules is not None:
        from zerolang.archive.policy import load_policy

        load_policy(rules)  # a bad policy stops the server before a client connects
    access = None if rules is None or as_channel is None else ArchiveAccess(str(rules), as_channel, clearance)
    store = _open(db, create=True, space=space)
    location = experiences if experiences is not None and str(experiences) else default_path()
    if str(location) != ":memory:":
        location.parent.mkdir(parents=True, exist_ok=True)
    with Memory(store, experiences=location, archive=resolve_root(root)) as memory:
        build_server(memory, access).run("stdio")

"""`zero mcp`: serve 0-memory to agents as MCP tools over stdin and stdout."""

from __future__ import annotations

from typing import Annotated

import typer

from zerolang.cli.typer_options import (
    ClearanceOption,
    DbOption,
    ExperiencesOption,
    MaybeAsOption,
    PolicyOption,
    RootOption,
    SpaceOption,
)
from zerolang.util.spaces import DEFAULT_SPACE


def mcp(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    experiences: ExperiencesOption = None,
    root: RootOption = None,
    policy: PolicyOption = None,
    as_channel: MaybeAsOption = None,
    clearance: ClearanceOption = None,
    print_config: Annotated[
        str | None,
        typer.Option(
            "--print-config",
            metavar="CLIENT",
            help="Print the JSON that claude-desktop, claude-code, cursor or vscode needs to start"
            " this server (with these options), instead of serving.",
        ),
    ] = None,
) -> None:
    """Serve memory to agents over MCP (stdio): get, search, store, recall, query, and the
    reference memory server's knowledge-graph tools.

    Clients start it (see the README for a configuration). The archive tools (`get` of a
    document, `search`) answer only with a consent policy and a channel. Needs the `mcp`
    extra: python -m pip install ".[mcp]" in a clone of zerolang.
    """
    from zerolang.archive.settings import memory_settings_for
    from zerolang.memory.api import open_memory
    from zerolang.util.errors import ZeroError

    if print_config is not None:
        _print_config(print_config, db, space, experiences, root, policy, as_channel)
        return

    try:
        from zerolang.mcp.readers import Readers
        from zerolang.mcp.server import ArchiveAccess, build_server
        from zerolang.mcp.stdio import run_stdio
    except ImportError as error:
        from zerolang.util.extras import install_hint

        missing = (error.name or "mcp").split(".")[0]
        raise ZeroError(f"zero mcp needs {missing}: {install_hint('mcp')}") from None
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
    # every store where the CLI and the Python API find it (zerolang.memory.settings)
    with (
        open_memory(db, space=space, experiences=experiences, archive=root) as memory,
        Readers(memory) as readers,
    ):
        run_stdio(build_server(memory, access, readers))


def _print_config(
    client: str,
    db: str | None,
    space: str,
    experiences: object,
    root: object,
    policy: object,
    channel: str | None,
) -> None:
    """The client's configuration on stdout: ours, to paste into its file (docs/integrations)."""
    import sys

    from zerolang.agents.clients import ServerSpec, client_config_text
    from zerolang.agents.command import zero_program
    from zerolang.util.errors import ZeroError

    if policy is not None and channel is None:
        raise ZeroError("--policy and --as go together: a policy says what a channel may see")
    spec = ServerSpec(
        zero_program(),
        db=db,
        space=None if space == DEFAULT_SPACE else space,
        experiences=None if experiences is None else str(experiences),
        archive=None if root is None else str(root),
        policy=None if policy is None else str(policy),
        channel=channel,
    )
    sys.stdout.write(client_config_text(client, spec))

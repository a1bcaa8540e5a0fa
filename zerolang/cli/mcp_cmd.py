"""`zero mcp`: serve 0-memory to agents as MCP tools over stdio, or over HTTP with bearer tokens
(`zero mcp --http`, `zero mcp token create|list|revoke`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, ParamSpec

import typer

from zerolang.cli.errors import reports_errors
from zerolang.cli.typer_options import (
    ClearanceOption,
    DbOption,
    ExperiencesOption,
    JsonOption,
    MaybeAsOption,
    PolicyOption,
    RootOption,
    SpaceOption,
)
from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from pathlib import Path

    from zerolang.mcp.access import ArchiveAccess

P = ParamSpec("P")

# Not imported from zerolang.util.listening / zerolang.mcp.http: `zero mcp --help` needs neither.
LOOPBACK, DEFAULT_PORT, DEFAULT_PATH = "127.0.0.1", 8765, "/mcp"
_PATH = re.compile(r"/[A-Za-z0-9._~/-]*")

mcp_app = typer.Typer(
    name="mcp",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
token_app = typer.Typer(
    name="token",
    help="The bearer tokens of zero mcp --http: each reaches one space, read-only or read-write.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
mcp_app.add_typer(token_app, name="token")


def _guarded(function: Callable[P, None]) -> Callable[P, None]:
    """Our errors, and the storage engine's, as one line and exit 1."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        def run() -> None:
            from zerolang.memory.opening import storage_errors

            with storage_errors():
                function(*args, **kwargs)

        reports_errors(run)()

    return wrapper


@mcp_app.callback(invoke_without_command=True)
def mcp(
    context: typer.Context,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    experiences: ExperiencesOption = None,
    root: RootOption = None,
    policy: PolicyOption = None,
    as_channel: MaybeAsOption = None,
    clearance: ClearanceOption = None,
    http: Annotated[
        bool,
        typer.Option(
            "--http",
            help="Serve over Streamable HTTP instead of stdio: every request needs a bearer token"
            " (zero mcp token create), which reaches one space.",
        ),
    ] = False,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDRESS",
            help="With --http: listen on this address. Default: 127.0.0.1 (this machine only);"
            " any other is warned about.",
        ),
    ] = LOOPBACK,
    port: Annotated[
        int, typer.Option("--port", metavar="N", help="With --http: listen on this port (0: any free one).")
    ] = DEFAULT_PORT,
    path: Annotated[
        str, typer.Option("--path", metavar="PATH", help="With --http: the endpoint's path.")
    ] = DEFAULT_PATH,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="With --http: a Host name the server answers besides this machine's (the name a"
            " reverse proxy forwards); repeatable.",
        ),
    ] = None,
    print_config: Annotated[
        str | None,
        typer.Option(
            "--print-config",
            metavar="CLIENT",
            help="Print the configuration claude-desktop, claude-code, cursor, vscode or codex needs to"
            " start this server (with these options), or with --url to reach it over HTTP, instead of"
            " serving.",
        ),
    ] = None,
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            metavar="URL",
            help="With --print-config: the HTTP endpoint the client reaches (https://host/mcp).",
        ),
    ] = None,
    token_env: Annotated[
        str | None,
        typer.Option(
            "--token-env",
            metavar="VAR",
            help="With --url: the environment variable the client reads the token from."
            " Default: ZERO_MEMORY_TOKEN.",
        ),
    ] = None,
) -> None:
    """Serve memory to agents over MCP (stdio, or HTTP with --http): get, search, store, recall,
    query, and the reference memory server's knowledge-graph tools.

    Clients start it over stdio (see the README for a configuration); over HTTP each request carries
    a bearer token that reaches one space (zero mcp token create). The archive tools (`get` of a
    document, `search`) answer only with a consent policy and a channel. Needs the `mcp` extra:
    python -m pip install ".[mcp]" in a clone of zerolang.
    """
    if context.invoked_subcommand is not None:
        return
    _guarded(_mcp)(
        db,
        space,
        experiences,
        root,
        policy,
        as_channel,
        clearance,
        http,
        (host, port, path, tuple(allow_host or ())),
        print_config,
        url,
        token_env,
    )


def _mcp(
    db: str | None,
    space: str,
    experiences: Path | None,
    root: Path | None,
    policy: Path | None,
    as_channel: str | None,
    clearance: int | None,
    http: bool,
    listen_on: tuple[str, int, str, tuple[str, ...]],
    print_config: str | None,
    url: str | None,
    token_env: str | None,
) -> None:
    from zerolang.archive.settings import memory_settings_for
    from zerolang.memory.api import open_memory
    from zerolang.util.errors import ZeroError

    host, port, path, allowed = listen_on
    if url is not None and print_config is None:
        raise ZeroError("--url goes with --print-config CLIENT: it names the endpoint the client reaches")
    if token_env is not None and url is None:
        raise ZeroError("--token-env goes with --url: a client sends a token only over HTTP")
    if print_config is not None:
        if url is not None:
            _print_http_config(print_config, url, token_env)
        else:
            _print_config(print_config, db, space, experiences, root, policy, as_channel)
        return
    if not http and ((host, port, path) != (LOOPBACK, DEFAULT_PORT, DEFAULT_PATH) or allowed):
        raise ZeroError("--host, --port, --path and --allow-host go with --http")
    if http and not _PATH.fullmatch(path):
        raise ZeroError(f"--path {path!r}: a path such as /mcp (letters, digits and . _ ~ / -)")
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
    if http:
        _serve_http(db, space, experiences, root, access, (host, port, path, allowed))
        return
    # every store where the CLI and the Python API find it (zerolang.memory.settings)
    with (
        open_memory(db, space=space, experiences=experiences, archive=root) as memory,
        Readers(memory) as readers,
    ):
        run_stdio(build_server(memory, access, readers))


def _serve_http(
    db: str | None,
    space: str,
    experiences: Path | None,
    root: Path | None,
    access: ArchiveAccess | None,
    listen_on: tuple[str, int, str, tuple[str, ...]],
) -> None:
    """Serve over HTTP until interrupted; the memory opened where stdio's is (its space the home one)."""
    import sys

    from zerolang.mcp.http import HttpApp, Spaces, run_http, security_for
    from zerolang.memory.api import open_memory
    from zerolang.util.escapes import escaped
    from zerolang.util.listening import is_loopback, listen

    host, port, path, allowed = listen_on
    listening = listen(host, port)
    try:
        with open_memory(db, space=space, experiences=experiences, archive=root) as memory:
            spaces = Spaces(memory, access)
            try:
                if not is_loopback(host):
                    sys.stderr.write(
                        f"warning: listening on {escaped(host)}: anyone who reaches it may try tokens;"
                        " put TLS in front (a reverse proxy: docs/deployment.md)\n"
                    )
                where = escaped(str(memory.stores.memory))
                endpoint = listening.url.rstrip("/") + path
                sys.stderr.write(
                    f"serving {where} over MCP at {endpoint}"
                    " (each request needs a bearer token: zero mcp token create --space SPACE)\n"
                )
                run_http(HttpApp(spaces, security_for(host, allowed), path), listening)
            finally:
                spaces.close()
    finally:
        listening.socket.close()


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


def _print_http_config(client: str, url: str, token_env: str | None) -> None:
    """The client's configuration for the HTTP endpoint `url`, the token read from `token_env`."""
    import sys

    from zerolang.agents.clients import HttpSpec, http_config_text

    sys.stdout.write(http_config_text(client, HttpSpec.checked(url, token_env)))


# ---- zero mcp token ----------------------------------------------------------------------------

ReadOnly = Annotated[bool, typer.Option("--read-only", help="The token may read the space, never change it.")]
Name = Annotated[str, typer.Option("--name", metavar="TEXT", help="What the token is for (shown by list).")]
Expires = Annotated[
    str | None,
    typer.Option(
        "--expires",
        metavar="WHEN",
        help="When the token stops working: a duration from now (12h, 30d, 2w) or an ISO date."
        " Default: never (until revoked).",
    ),
]


@token_app.command("create")
@_guarded
def token_create(
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    read_only: ReadOnly = False,
    name: Name = "",
    expires: Expires = None,
) -> None:
    """Make a bearer token that reaches one space over HTTP; it is printed once, on the last line.

    The memory keeps only its SHA-256: a lost token cannot be shown again (revoke it, make another).
    """
    from zerolang.memory.api import open_memory
    from zerolang.util.escapes import escaped

    with open_memory(db, space=space) as memory:
        secret, token = memory.create_token(space, read_only=read_only, name=name, expires=expires)
    access = "read-only" if token.read_only else "read-write"
    until = "never expires" if token.expires_at is None else f"expires {token.expires_at}"
    named = f" ({escaped(token.name)})" if token.name else ""
    typer.echo(f"token {token.id}{named}: {access} on space {escaped(token.space)}, {until}")
    typer.echo("shown once: keep it secret; the memory keeps only its SHA-256")
    typer.echo(secret)


@token_app.command("list")
@_guarded
def token_list(db: DbOption = None, json: JsonOption = False) -> None:
    """List the tokens of the memory (every space's): id, space, access, state, expiry, name."""
    from datetime import UTC, datetime

    from zerolang.memory.api import open_memory
    from zerolang.util.escapes import escaped, json_text
    from zerolang.util.times import format_time

    with open_memory(db, create=False) as memory:
        tokens = memory.tokens()
    now = format_time(datetime.now(UTC))
    if json:
        typer.echo(json_text({"tokens": [token.to_json(now) for token in tokens]}))
        return
    if not tokens:
        typer.echo("no tokens (zero mcp token create --space SPACE makes one)")
        return
    for token in tokens:
        access = "read-only" if token.read_only else "read-write"
        until = token.expires_at or "never"
        typer.echo(
            f"{token.id}  {escaped(token.space)}  {access}  {token.state(now)}  expires {until}"
            + (f"  {escaped(token.name)}" if token.name else "")
        )


@token_app.command("revoke")
@_guarded
def token_revoke(
    token: Annotated[str, typer.Argument(metavar="TOKEN|ID", help="The token itself, or its id (list).")],
    db: DbOption = None,
) -> None:
    """Revoke a token: from the next request on, the server answers it 401."""
    from zerolang.memory.api import open_memory
    from zerolang.util.escapes import escaped

    with open_memory(db, create=False) as memory:
        revoked = memory.revoke_token(token)
    typer.echo(f"revoked token {revoked.id} (space {escaped(revoked.space)}) at {revoked.revoked_at}")

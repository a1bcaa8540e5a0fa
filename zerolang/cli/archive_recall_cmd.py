"""`zero archive search|policy|compact|expand`, and the policy options `get` and `put` share.

The summary index lives in a memory store: `--db PATH|URL` (or `$ZERO_MEMORY_DB`), else
`memory.index.sql.dsn`, else the memory commands' default store; `--space NAME` picks its space.
The policy is `--policy FILE`, else `memory.archive.policy`. A caller is
`--as CHANNEL` (and `--clearance N` to lower the channel's clearance).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from zerolang.cli.archive_cmd import (
    _command,
    _open,
    _plural,
    _print_json,
    caller,
    open_gate,
    open_index,
)
from zerolang.cli.options import ABSTRACTION, PRIVACY
from zerolang.cli.terminal import echo, write_document
from zerolang.cli.typer_options import (
    AbstractionOption,
    AsOption,
    ClearanceOption,
    IndexDbOption,
    JsonOption,
    PolicyOption,
    PrivacyOption,
    RootOption,
    SpaceOption,
)
from zerolang.util.escapes import escaped
from zerolang.util.spaces import DEFAULT_SPACE

if TYPE_CHECKING:
    from zerolang.archive.compaction import Conversation


# ---- search ---------------------------------------------------------------------------------


@_command("search")
def search(
    as_channel: AsOption,
    text: Annotated[
        str, typer.Argument(help="Words that must all occur in the summary.", metavar="[TEXT]")
    ] = "",
    clearance: ClearanceOption = None,
    limit: Annotated[int, typer.Option("--limit", min=1, metavar="N", help="At most N summaries.")] = 10,
    since: Annotated[
        int | None, typer.Option("--since", metavar="DAYS", help="Only memories of the last DAYS days.")
    ] = None,
    root: RootOption = None,
    db: IndexDbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    policy: PolicyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Search the summaries a channel may see.

    Never full texts: only summaries the policy lets CHANNEL see, newest first.
    """
    gate = open_gate(root, db, space, policy)
    hits = gate.search(
        caller(as_channel, clearance), text, limit=limit, t_min=None if since is None else -since
    )
    if as_json:
        _print_json([hit.to_json() for hit in hits])
        return
    if not hits:
        echo("no summaries")
        return
    for hit in hits:
        echo(f"{hit.hash}  t={hit.t_x:+d}  y={hit.y_privacy:+d}  {escaped(hit.source_channel)}")
        echo(f"  {escaped(hit.summary)}")


# ---- policy ---------------------------------------------------------------------------------


@_command("policy")
def policy_(
    file: Annotated[
        Path, typer.Argument(help="The policy file to check.", metavar="FILE", show_default=False)
    ],
) -> None:
    """Check a consent policy file and show what it allows."""
    from zerolang.archive.policy import load_policy

    policy = load_policy(file)
    lines = [f"{file}: {_plural(len(policy.scopes), 'scope')}, {_plural(len(policy.channels), 'channel')}"]
    for scope in policy.scopes.values():
        uses = ", ".join(use for use in ("summary", "full") if use in scope.uses) or "nothing"
        where = "any channel" if scope.channels is None else ", ".join(scope.channels)
        state = "revoked" if scope.revoked else f"releases {uses} on {where}"
        lines.append(f"  scope    {scope.name:<14} {state}")
    for channel in policy.channels.values():
        reads = ", ".join(channel.reads)
        lines.append(f"  channel  {channel.name:<14} reads {reads}; clearance {channel.clearance:+d}")
    echo("\n".join(lines))


# ---- compact, expand ------------------------------------------------------------------------


def _read_conversation(file: str, channel: str, session: str) -> Conversation:
    from zerolang.archive.compaction import Conversation
    from zerolang.cli.stdin import STDIN
    from zerolang.util.files import read_text

    text = sys.stdin.read() if file == STDIN else read_text(file, "conversation")
    from zerolang.util.errors import ZeroError

    try:
        return Conversation.from_jsonl(text, channel=channel, session=session)
    except ZeroError as error:  # the message names the line; add the file
        raise ZeroError(f"{file}: {error.message}") from None


def _write_conversation(data: bytes, output: Path | None) -> None:
    if output is None:
        write_document(data)
        return
    from zerolang.archive.files import write_atomic

    write_atomic(output, data, mode=0o644)


OutputOption = Annotated[
    Path | None,
    typer.Option("--output", "-o", metavar="FILE", help="Write here (atomically) instead of stdout."),
]


@_command("compact")
def compact(
    file: Annotated[
        str,
        typer.Argument(
            help="A conversation: JSON Lines, one message per line; - is stdin.", metavar="FILE|-"
        ),
    ],
    channel: Annotated[
        str, typer.Option("--channel", metavar="NAME", help="The conversation's channel.", show_default=False)
    ],
    session: Annotated[
        str, typer.Option("--session", metavar="ID", help="The conversation's session.", show_default=False)
    ],
    scope: Annotated[
        str,
        typer.Option(
            "--scope", metavar="NAME", help="The consent scope to archive under.", show_default=False
        ),
    ],
    keep_last: Annotated[
        int | None,
        typer.Option("--keep-last", min=0, metavar="N", help="Compact all but the newest N messages."),
    ] = None,
    start: Annotated[
        int | None, typer.Option("--from", min=0, metavar="I", help="First message of the range.")
    ] = None,
    end: Annotated[
        int | None, typer.Option("--to", min=0, metavar="J", help="End of the range (exclusive).")
    ] = None,
    privacy: PrivacyOption = PRIVACY.default,
    abstraction: AbstractionOption = ABSTRACTION.default,
    output: OutputOption = None,
    root: RootOption = None,
    db: IndexDbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
) -> None:
    """Replace a conversation range by a summary.

    The range is archived and indexed; the summary block holds its hash.
    """
    from zerolang.archive.compaction import compact as compact_range
    from zerolang.archive.compaction import keep_last as last
    from zerolang.util.errors import ZeroError

    conversation = _read_conversation(file, channel, session)
    if keep_last is not None:
        if start is not None or end is not None:
            raise ZeroError("give --keep-last or --from/--to, not both")
        first, stop = last(conversation, keep_last)
    elif start is not None or end is not None:
        first, stop = start or 0, len(conversation.messages) if end is None else end
    else:
        raise ZeroError("say which range: --keep-last N, or --from I --to J")
    archive = _open(root, create=True)
    result = compact_range(
        conversation,
        first,
        stop,
        archive=archive,
        index=open_index(db, space, create=True, root=root),
        consent_scope=scope,
        privacy=privacy,
        abstraction=abstraction,
    )
    _write_conversation(result.conversation.to_jsonl(), output)
    if result.document is None:
        echo("nothing to compact: the range holds no ordinary message", err=True)
    else:
        echo(
            f"compacted messages {first}..{stop - 1} ({_plural(stop - first, 'message')})"
            f" into sha256:{result.document.hash}",
            err=True,
        )


@_command("expand")
def expand(
    file: Annotated[
        str, typer.Argument(help="A compacted conversation (JSON Lines); - is stdin.", metavar="FILE|-")
    ],
    as_channel: AsOption,
    clearance: ClearanceOption = None,
    output: OutputOption = None,
    root: RootOption = None,
    db: IndexDbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    policy: PolicyOption = None,
) -> None:
    """Restore compacted ranges the policy allows.

    Every summary block the policy lets CHANNEL read becomes its archived messages again.
    """
    from zerolang.archive.compaction import expand as expand_blocks

    conversation = _read_conversation(file, "-", "-")
    result = expand_blocks(conversation, open_gate(root, db, space, policy), caller(as_channel, clearance))
    _write_conversation(result.conversation.to_jsonl(), output)
    for digest, rule in result.refused:
        echo(f"kept the summary of {digest}: refused by {rule}", err=True)
    echo(f"restored {_plural(len(result.restored), 'block')}, kept {len(result.refused):,}", err=True)


# ---- revoke ---------------------------------------------------------------------------------


@_command("revoke")
def revoke(
    hashes: Annotated[
        list[str], typer.Argument(help="Full document hashes.", metavar="HASH...", show_default=False)
    ],
    undo: Annotated[bool, typer.Option("--undo", help="Restore consent instead.")] = False,
    root: RootOption = None,
    db: IndexDbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
) -> None:
    """Withdraw consent for documents.

    No summary and no full text is released for them any more.

    The documents stay in the archive (nothing is destroyed); their index rows carry the
    `revoked` flag, which the policy refuses as consent.revoked. --undo removes the flag.
    """
    from zerolang.archive.document import parse_hash
    from zerolang.archive.index import REVOKED
    from zerolang.util.errors import ZeroError

    digests = [parse_hash(text) for text in hashes]
    _open(root)  # the archive must exist
    store = open_index(db, space, create=False, root=root)
    try:
        missing = [digest for digest in digests if store.get(digest) is None]
        if missing:
            raise ZeroError(f"no index entry for {missing[0]}")
        for digest in digests:
            record = store.get(digest)
            assert record is not None
            flags = set(record.consent_flags) - {REVOKED} if undo else {*record.consent_flags, REVOKED}
            store.set_flags(digest, flags)
            echo(f"{'restored' if undo else 'revoked'}  {digest}")
    finally:
        store.close()

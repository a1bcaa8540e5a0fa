"""`zero memory bundle | receive`: signed transfer between agents (`zerolang.knowledge.formats.bundle`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from zerolang.cli.memory_cmd import _command, _print_json
from zerolang.cli.stores import open_memory_store, opened_or_undone
from zerolang.cli.terminal import echo
from zerolang.cli.typer_options import DbOption, JsonOption, SpaceOption
from zerolang.util.spaces import DEFAULT_SPACE


@_command("bundle")
def bundle(
    key: Annotated[Path, typer.Option("--key", metavar="KEY.pem", help="The signer's Ed25519 private key.")],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE", help="Write the bundle here.")],
    since: Annotated[
        str | None,
        typer.Option(
            "--since", metavar="CHECKPOINT", help="Only what was added since this checkpoint: a delta."
        ),
    ] = None,
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
) -> None:
    """Write a signed bundle of the memory (or a delta since a checkpoint) for `zero memory receive`."""
    from zerolang.memory.upkeep import make_bundle as make
    from zerolang.memory.upkeep import signer_id as key_id
    from zerolang.runtime.signing import Ed25519Signer
    from zerolang.util.files import write_text_atomic

    signer = Ed25519Signer.from_key_file(key)
    with open_memory_store(db, create=False, space=space) as store:
        text = make(store, signer, since)
    write_text_atomic(output, text)
    echo(
        f"wrote {output}: signed by {key_id(signer.public_key_bytes)}"
        + (f", delta on {since[:12]}" if since else "")
    )


@_command("receive")
def receive(
    file: Annotated[Path, typer.Argument(help="A bundle from `zero memory bundle`.", metavar="FILE")],
    trust: Annotated[
        list[Path],
        typer.Option(
            "--trust", metavar="KEY.pem", help="A trusted signer's key (public or private); repeatable."
        ),
    ],
    db: DbOption = None,
    space: SpaceOption = DEFAULT_SPACE,
    as_json: JsonOption = False,
) -> None:
    """Check a bundle's signature against trusted keys and its base, then apply it in one transaction."""
    from zerolang.memory.upkeep import apply_bundle as apply
    from zerolang.memory.upkeep import check_bundle as check
    from zerolang.runtime.signing import Ed25519Signer
    from zerolang.util.files import read_text

    trusted = [Ed25519Signer.from_key_file(path).public_key_bytes for path in trust]
    text = read_text(str(file), "bundle")
    bundle = check(text, trusted, str(file))  # refused before any store is opened
    with opened_or_undone(db, space=space) as store:
        received = apply(store, bundle, str(file))
    if as_json:
        _print_json(received.to_json())
        return
    echo(
        f"received {file} from {received.key_id}: {received.relations} relations,"
        f" {received.tombstones} tombstones; checkpoint {received.checkpoint}"
    )

"""`zero keygen`: make an Ed25519 key for `zero run --key`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from zerolang.cli.terminal import echo


def keygen(
    file: Annotated[
        Path, typer.Argument(help="Where to write the PEM private key.", show_default=False, metavar="FILE")
    ],
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a new Ed25519 private key (PEM, mode 0600) for real Sign/Verify."""
    from zerolang.runtime.signing import generate_key_file
    from zerolang.util.errors import ZeroError

    if file.exists() and not force:
        raise ZeroError(f"{file}: already exists (use --force to replace it)")
    public_hex = generate_key_file(file)
    echo(f"wrote {file}; public key {public_hex}")

"""`zero lsp`: the language server editors start for `.0` and `.0c` files."""

from __future__ import annotations

from typing import Annotated

import typer


def lsp(
    stdio: Annotated[
        bool,
        typer.Option("--stdio", help="Talk over stdin and stdout (the only transport; editors pass it)."),
    ] = False,
) -> None:
    """Start the language server: editors run it and talk LSP over stdin and stdout.

    Diagnostics from `zero check` and `zero lint` as you type, quick fixes,
    formatting, hover docs, go to definition, references, rename of node ids,
    completion and an outline. Needs the `lsp` extra: python -m pip install ".[lsp]" in a clone of zerolang.
    """
    from zerolang.util.errors import ZeroError

    try:
        from zerolang.lsp.server import serve_stdio
    except ImportError as error:
        from zerolang.util.extras import install_hint

        missing = (error.name or "pygls").split(".")[0]
        raise ZeroError(f"zero lsp needs {missing}: {install_hint('lsp')}") from None
    serve_stdio()

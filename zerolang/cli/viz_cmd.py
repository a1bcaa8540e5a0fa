"""`zero viz`: a graph as Mermaid or Graphviz DOT text, or as an SVG, PNG or PDF drawn by Graphviz.

The text formats need nothing installed; images need Graphviz's `dot`
program, and say how to get it when it is missing. The graph is parsed, not
validated: a broken graph is drawn with its problems marked, which is when a
picture helps most. Files are written whole or not at all (a temporary file
beside the target, then a rename).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from zerolang.util.escapes import escaped


class VizFormat(StrEnum):
    mermaid = "mermaid"
    dot = "dot"


IMAGE_SUFFIXES = {".svg": "svg", ".png": "png", ".pdf": "pdf"}
TEXT_SUFFIXES = {
    ".dot": VizFormat.dot,
    ".gv": VizFormat.dot,
    ".mmd": VizFormat.mermaid,
    ".mermaid": VizFormat.mermaid,
}
INSTALL_GRAPHVIZ = """Install Graphviz (https://graphviz.org/download/):
  Debian/Ubuntu  sudo apt install graphviz
  Fedora         sudo dnf install graphviz
  macOS          brew install graphviz
  Windows        winget install graphviz
  conda          conda install -c conda-forge graphviz
or print text that needs nothing installed: `zero viz FILE --format dot` (or `--format mermaid`)."""


def viz(
    file: Annotated[Path, typer.Argument(help="The .0 graph to draw.", show_default=False, metavar="FILE")],
    format: Annotated[
        VizFormat | None,
        typer.Option(
            "--format",
            "-f",
            case_sensitive=False,
            show_default=False,
            help="mermaid or dot text. Default: from the -o suffix (.dot, .gv, .mmd), else mermaid.",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            show_default=False,
            help="Write here instead of printing; the format follows the suffix (.mmd, .mermaid, .dot, .gv;"
            " .svg, .png or .pdf: drawn by Graphviz's dot program), any other needs --format.",
        ),
    ] = None,
) -> None:
    """Draw a graph: nodes with their id and op or type, edges from inputs, outputs and unknowns marked."""
    from zerolang.syntax.parser import parse, read_source
    from zerolang.tools.viz import to_dot, to_mermaid
    from zerolang.util.errors import ZeroError
    from zerolang.util.files import write_text_atomic

    chosen = VizFormat(format) if format is not None else None
    graph = parse(read_source(file), file)
    suffix = output.suffix.lower() if output is not None else ""
    if output is not None and suffix in IMAGE_SUFFIXES:
        if chosen is VizFormat.mermaid:
            raise ZeroError(
                f"{output}: images are drawn from DOT by Graphviz; for Mermaid text write a .mmd file "
                "(or leave out --format mermaid)"
            )
        render(to_dot(graph), output, IMAGE_SUFFIXES[suffix])
        typer.echo(f"wrote {escaped(str(output))}")
        return
    if output is not None and chosen is None and suffix not in TEXT_SUFFIXES:
        known = ", ".join([*TEXT_SUFFIXES, *IMAGE_SUFFIXES])
        raise ZeroError(
            f"{output}: cannot tell the format from the suffix `{output.suffix or '(none)'}`;"
            f" write one of {known}, or give --format mermaid|dot"
        )
    chosen = chosen or TEXT_SUFFIXES.get(suffix, VizFormat.mermaid)
    text = to_dot(graph) if chosen is VizFormat.dot else to_mermaid(graph)
    if output is None:
        typer.echo(text, nl=False)
        return
    write_text_atomic(output, text)
    typer.echo(f"wrote {escaped(str(output))}")


def render(dot_text: str, output: Path, image_format: str) -> None:
    """Run Graphviz's `dot` into a temporary file beside `output`, then rename it into place."""
    import shutil
    import subprocess

    from zerolang.util.errors import ZeroError
    from zerolang.util.files import replace_with

    program = shutil.which("dot")
    if program is None:
        raise ZeroError(
            f"{output}: drawing a .{image_format} needs Graphviz's `dot` program, which is not installed "
            f"(not on PATH).\n{INSTALL_GRAPHVIZ}"
        )

    def run_dot(temporary: Path) -> None:
        try:
            result = subprocess.run(
                [program, f"-T{image_format}", "-o", str(temporary)],
                input=dot_text.encode("utf-8"),
                capture_output=True,
                timeout=300,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ZeroError(f"{output}: Graphviz's dot ran for 5 minutes; nothing was written") from None
        except OSError as error:
            raise ZeroError(f"{output}: cannot run {program} ({error.strerror or error})") from None
        if result.returncode != 0:
            message = result.stderr.decode("utf-8", "replace").strip() or f"exit status {result.returncode}"
            raise ZeroError(f"{output}: Graphviz's dot failed: {message}")

    replace_with(output, run_dot)

"""`zero hook install pi`: pi's extension file, with the command that starts this `zero`, in place.

pi loads extensions from `.pi/extensions/*.ts` in a project and `~/.pi/agent/extensions/*.ts`
for the user. The file written is `pi_extension.ts` with the command line filled in; uninstalling
removes it only when it is ours (it carries our marker line).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from zerolang.agents.pi import EXTENSION
from zerolang.util.errors import ZeroError

FILE_NAME = "zero-memory.ts"
PLACEHOLDER = '\'["zero", "hook", "pi"]\''
MARKER = "zero-memory: 0-memory for pi"


def extension_path(*, user: bool, project: Path | None = None, home: Path | None = None) -> Path:
    if user:
        return (home or Path.home()) / ".pi" / "agent" / "extensions" / FILE_NAME
    return (project or Path.cwd()) / ".pi" / "extensions" / FILE_NAME


def extension_text(command: Sequence[str]) -> str:
    """The extension, running `command` (its words: `[".../zero", "hook", "pi", options...]`)."""
    template = EXTENSION.read_text(encoding="utf-8")
    return template.replace(PLACEHOLDER, json.dumps(json.dumps(list(command))))


def write(path: Path, command: Sequence[str]) -> bool:
    """Write the extension at `path`; whether it changed."""
    text = extension_text(command)
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return False
        if path.exists() and MARKER not in path.read_text(encoding="utf-8"):
            raise ZeroError(f"{path} exists and is not zero-memory's extension; nothing was changed")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ZeroError(f"cannot write {path}: {error.strerror}") from None
    return True


def remove(path: Path) -> bool:
    try:
        if not path.is_file() or MARKER not in path.read_text(encoding="utf-8"):
            return False
        path.unlink()
    except OSError as error:
        raise ZeroError(f"cannot remove {path}: {error.strerror}") from None
    return True

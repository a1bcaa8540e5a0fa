"""Reading a user's file: every way it can fail is one clear `ZeroError` line, never a traceback."""

from __future__ import annotations

from pathlib import Path

from zerolang.errors import ZeroError


def read_bytes(path: str | Path, what: str = "file") -> bytes:
    """The file's bytes; `what` names it in errors ("key file", ".0 file")."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise ZeroError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise ZeroError(f"{path}: is a directory, not a {what}") from None
    except OSError as error:
        raise ZeroError(f"{path}: cannot read the {what} ({error.strerror or error})") from None


def read_text(path: str | Path, what: str = "file") -> str:
    """The file as UTF-8 text."""
    data = read_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ZeroError(f"{path}: not UTF-8 text (byte {error.start})") from None


def write_text_atomic(path: str | Path, text: str) -> None:
    """Replace a file's text all at once: a crash leaves the old file or the new one, never half of one.

    `newline=""` keeps the text's own line endings (the formatter keeps CRLF files CRLF).
    """
    import os
    import tempfile

    target = Path(path)
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ZeroError(f"{path}: cannot write ({error.strerror or error})") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_json(path: str | Path, what: str = "JSON file") -> object:
    """A JSON document from a file; invalid JSON is reported at its file:line:col."""
    import json

    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ZeroError(f"{path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}") from None


# Folders no one means when they point `zero fmt` or `zero lint` at a project.
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "build", "dist"})


def find_sources(paths: list[Path], suffixes: tuple[str, ...] = (".0",)) -> list[Path]:
    """Files named directly, as given; folders searched for `suffixes`, sorted, without repeats.

    Hidden folders and tool folders are skipped. A path that does not exist is
    returned as given, so the reader reports it in its turn.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    for path in paths:
        for file in sorted(_walk(path, suffixes)) if path.is_dir() else [path]:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                found.append(file)
    return found


def _walk(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    files: list[Path] = []
    for child in folder.iterdir():
        if child.is_dir():
            if not child.name.startswith(".") and child.name not in SKIPPED_FOLDERS:
                files.extend(_walk(child, suffixes))
        elif child.suffix in suffixes and child.is_file():
            files.append(child)
    return files

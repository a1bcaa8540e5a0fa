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

"""Reading a user's file: every way it can fail is one clear `ZeroError` line, never a traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from zerolang.util.errors import ZeroError


def read_bytes(path: str | Path, what: str = "file") -> bytes:
    """The file's bytes; `what` names it in errors ("key file", ".0 file").

    Only a regular file (or a link to one) is read: a device such as `/dev/zero` would never end
    and a FIFO would wait for a writer, so both are refused before a byte is read (the FIFO is
    opened without waiting).
    """
    import os
    import stat

    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ZeroError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise ZeroError(f"{path}: is a directory, not a {what}") from None
    except OSError as error:
        raise ZeroError(f"{path}: cannot read the {what} ({error.strerror or error})") from None
    try:
        kind = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(kind):
            raise ZeroError(f"{path}: is a directory, not a {what}")
        if not stat.S_ISREG(kind):
            raise ZeroError(
                f"{path}: is not a regular file ({_kind_name(kind)}); give a {what}, or - for stdin"
            )
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            return stream.read()
    except OSError as error:
        raise ZeroError(f"{path}: cannot read the {what} ({error.strerror or error})") from None
    finally:
        os.close(descriptor)


def _kind_name(mode: int) -> str:
    import stat

    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_text(path: str | Path, what: str = "file") -> str:
    """The file as UTF-8 text."""
    data = read_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ZeroError(f"{path}: not UTF-8 text (byte {error.start})") from None


def read_stdin_text() -> str:
    """Standard input as UTF-8 text, whatever the locale says: bytes that are not UTF-8 are an error,
    never decoded into surrogates (which a later write would turn back into invalid bytes)."""
    import sys

    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ZeroError(f"<stdin>: not UTF-8 text (byte {error.start})") from None


def write_text_atomic(path: str | Path, text: str) -> None:
    """Replace a file's text all at once (see `write_bytes_atomic`).

    The text is written as UTF-8 exactly as given: `\\r\\n` stays (the formatter keeps CRLF files CRLF).
    Text that cannot be encoded is refused before anything is touched.
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ZeroError(
            f"{path}: cannot write text holding a lone surrogate (U+{ord(text[error.start]):04X}); "
            "nothing was written"
        ) from None
    write_bytes_atomic(path, data)


def write_bytes_atomic(path: str | Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace a file's bytes all at once: a crash leaves the old file or the new one, never half of one.

    `mode` forces the permission bits (a private key: 0600); by default they are kept.
    """

    def fill(temporary: Path) -> None:
        with temporary.open("wb") as stream:
            stream.write(data)

    replace_with(path, fill, mode=mode)


def replace_with(path: str | Path, fill: Callable[[Path], object], *, mode: int | None = None) -> None:
    """Let `fill` write a temporary file beside `path`, then rename it over `path`: the one way we write.

    - the temporary file is in the target's own folder (a rename across file systems is a copy), is
      flushed to disk (fsync) before the rename, and the folder is synced after it;
    - an existing file keeps its permission bits; a new one gets 0666 less the umask;
    - a symbolic link is followed: its target is rewritten and the link stays a link;
    - any failure (an unwritable folder, a full disk, Ctrl-C, an error in `fill`) leaves `path` as it
      was and no temporary file behind, and an OS error is one clear `ZeroError` line.
    """
    import os
    import tempfile

    target = _write_target(Path(path))
    if mode is None:
        mode = _mode_for(target)
    try:
        handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise ZeroError(f"{path}: cannot write here ({error.strerror or error})") from None
    os.close(handle)
    temporary = Path(name)
    try:
        os.chmod(temporary, mode & 0o700)  # private until renamed (a key is never readable by others)
        fill(temporary)
        descriptor = os.open(temporary, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        _sync_folder(target.parent)
    except OSError as error:
        raise ZeroError(f"{path}: cannot write ({error.strerror or error}); the file is unchanged") from None
    finally:
        temporary.unlink(missing_ok=True)


def _write_target(path: Path) -> Path:
    """The file to replace: a symbolic link's final target (a dangling link's too), else `path`."""
    import os

    if not path.is_symlink():
        if path.exists() and not path.is_file():
            what = "a folder" if path.is_dir() else "not a regular file"
            raise ZeroError(f"{path}: is {what}; nothing was written")
        return path
    return Path(os.path.realpath(path))


def _mode_for(path: Path) -> int:
    """An existing file keeps its permissions; a new one gets the usual ones (0666 less the umask)."""
    import os
    import stat

    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; a platform without folder handles (Windows) skips it."""
    import os

    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def read_json(path: str | Path, what: str = "JSON file") -> object:
    """A JSON document from a file; invalid JSON is reported at its file:line:col."""
    return parse_json(read_text(path, what), str(path))


def parse_json(text: str, where: str) -> object:
    """JSON text as data. Invalid JSON, nesting deeper than `limits.MAX_DEPTH`, a lone surrogate
    escape, a key given twice in one object and a number that is not finite (`zerolang.util.strictjson`)
    are each one error at `where:line:col`; nothing deep reaches the recursive decoder."""
    import json

    from zerolang.util import strictjson
    from zerolang.util.escapes import LONE_SURROGATE, first_lone_surrogate, lone_surrogate_escape
    from zerolang.util.limits import MAX_DEPTH, TOO_DEEP, span_at, too_deep_at

    deep = too_deep_at(text)
    if deep is not None:
        raise ZeroError(TOO_DEEP.format(limit=MAX_DEPTH), path=where, span=span_at(text, deep), source=text)
    try:
        document: object = strictjson.DECODER.decode(text)
    except json.JSONDecodeError as error:
        span = span_at(text, error.pos)
        raise ZeroError(f"invalid JSON: {error.msg}", path=where, span=span, source=text) from None
    except strictjson.Refused as refused:
        problem = strictjson.locate(text, len(text) - len(text.lstrip()))
        if problem is None:  # pragma: no cover - the decoder and the scanner agree
            raise ZeroError(f"invalid JSON: {refused}", path=where) from None
        message = strictjson.message(text, problem)
        raise ZeroError(message, path=where, span=span_at(text, problem.offset), source=text) from None
    except ValueError as error:  # a number Python refuses to convert (more than 4300 digits)
        raise ZeroError(f"invalid JSON: {error}", path=where) from None
    if first_lone_surrogate(document) is not None:
        offset, escape = lone_surrogate_escape(text) or (0, "\\u")
        raise ZeroError(
            LONE_SURROGATE.format(escape=escape), path=where, span=span_at(text, offset), source=text
        )
    return document

"""The user's cache folder, and files in it that only this user's zerolang can have written.

A cached file is data read back on every start-up (built parser tables), so
whoever can write it could otherwise change what zerolang does. Three guards:

- the folder is private: created 0700, and refused when it is not owned by
  the user or is writable by group or others (`ZERO_CACHE_DIR` included);
- every file carries an HMAC-SHA256 under a per-user secret (`secret.key`,
  32 random bytes, mode 0600, in that folder), checked before anything in it
  is decoded; a file that fails the check is ignored and rebuilt;
- what is cached is plain data (`marshal` of dicts, lists, strings and
  numbers), never a pickle: even a correctly signed file holds no code.

`ZERO_CACHE_DIR` moves the folder, `ZERO_NO_CACHE=1` turns caching off.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import stat
import sys
from pathlib import Path

MAGIC = b"zerolang-cache-1\n"
SECRET_NAME = "secret.key"
SECRET_SIZE = 32
MAX_SIZE = 64 * 1024 * 1024  # no parser table comes near this; a bigger file is not ours

_folders: dict[tuple[str, str], Path | None] = {}  # by (ZERO_NO_CACHE, ZERO_CACHE_DIR)
_secrets: dict[Path, bytes | None] = {}


def _warn(message: str) -> None:
    sys.stderr.write(f"zero: warning: {message}; not using the cache\n")


def _private(folder: Path, *, quiet: bool = False) -> bool:
    """True when `folder` is a directory owned by this user that no one else can write (`quiet`: say
    nothing when it is not)."""
    try:
        info = os.stat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        flaw = "is not a directory"
    elif hasattr(os, "getuid") and info.st_uid != os.getuid():
        flaw = "is not owned by you"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        flaw = "is writable by others (chmod 700 it)"
    else:
        return True
    if not quiet:
        _warn(f"cache folder {folder} {flaw}")
    return False


def cache_dir() -> Path | None:
    """The private cache folder, created 0700 if missing; None when caching is off or unsafe."""
    setting = (os.environ.get("ZERO_NO_CACHE", ""), os.environ.get("ZERO_CACHE_DIR", ""))
    if setting in _folders:
        return _folders[setting]
    folder: Path | None = None
    if not setting[0]:
        override = setting[1]
        if override:
            candidate = Path(override)
        else:
            from platformdirs import user_cache_dir

            candidate = Path(user_cache_dir("zerolang", appauthor=False))
        try:
            candidate.parent.mkdir(parents=True, exist_ok=True)
            candidate.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError:
            candidate = Path()
        if candidate != Path() and _private(candidate):
            folder = candidate
    _folders[setting] = folder
    return folder


def _usual_folder() -> Path | None:
    """Where `cache_dir` puts the folder on Linux when nothing moves it: `$XDG_CACHE_HOME/zerolang`, else
    `$HOME/.cache/zerolang` (platformdirs' rule there). `load` looks there first, so a start-up that finds
    its tables imports no platformdirs (issue 43); anything else, a miss included, asks `cache_dir`, the
    rule's home. None when not on Linux, when a variable moves or turns off the cache, or when neither
    variable is an absolute path."""
    if sys.platform != "linux" or os.environ.get("ZERO_NO_CACHE") or os.environ.get("ZERO_CACHE_DIR"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.environ.get("HOME", "")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base, "zerolang")


def _read_secret(path: Path) -> bytes | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None
        if info.st_mode & 0o077 or not stat.S_ISREG(info.st_mode):
            return None
        data = handle.read(SECRET_SIZE + 1)
    return data if len(data) == SECRET_SIZE else None


def secret(folder: Path) -> bytes | None:
    """This user's signing key, made on first use; None if the one there is not private or not ours."""
    if folder in _secrets:
        return _secrets[folder]
    path = folder / SECRET_NAME
    if not path.exists():
        temporary = folder / f".{SECRET_NAME}.{os.getpid()}"
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(os.urandom(SECRET_SIZE))
                handle.flush()
                os.fsync(handle.fileno())
            with contextlib.suppress(FileExistsError):  # a racing process's key, if it came first
                os.link(temporary, path)  # the key appears whole or not at all
        except OSError:
            return None
        finally:
            temporary.unlink(missing_ok=True)
    key = _read_secret(path)
    if key is None:
        _warn(f"{path} is not a private 32-byte key of yours")
    _secrets[folder] = key
    return key


def _sign(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode() + b"\0" + payload, "sha256").digest()


def load(name: str) -> bytes | None:
    """The payload of cache file `name` if this user's zerolang wrote it, else None (missing or forged).

    The usual folder (`_usual_folder`) is read first when it is there and private; only when the file
    is not found there is the folder resolved (`cache_dir`, which imports platformdirs)."""
    usual = _usual_folder()
    if usual is not None and _private(usual, quiet=True):
        payload = _load_from(usual, name)
        if payload is not None:
            return payload
    folder = cache_dir()
    if folder is None or folder == usual:
        return None
    return _load_from(folder, name)


def _load_from(folder: Path, name: str) -> bytes | None:
    key = secret(folder)
    if key is None:
        return None
    try:
        descriptor = os.open(folder / name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        data = handle.read(MAX_SIZE + 1)
    head = len(MAGIC) + 32
    if len(data) > MAX_SIZE or len(data) < head or not data.startswith(MAGIC):
        return None
    payload = data[head:]
    if not hmac.compare_digest(data[len(MAGIC) : head], _sign(key, name, payload)):
        return None
    return payload


def store(name: str, payload: bytes, stale: str | None = None) -> None:
    """Write cache file `name` signed, atomically; `stale` is a glob of older versions to delete first."""
    folder = cache_dir()
    if folder is None:
        return
    key = secret(folder)
    if key is None:
        return
    for pattern in (stale, "*.lark-cache"):  # older versions of ours; lark's pickles of before
        for old in folder.glob(pattern) if pattern else ():
            if old.name != name:
                old.unlink(missing_ok=True)
    temporary = folder / f".{name}.{os.getpid()}.tmp"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(MAGIC + _sign(key, name, payload) + payload)
        os.replace(temporary, folder / name)
    except OSError:
        temporary.unlink(missing_ok=True)


def reset() -> None:
    """Forget the folders and keys checked so far (tests change them under a running process)."""
    _folders.clear()
    _secrets.clear()

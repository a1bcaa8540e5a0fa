"""A PostgreSQL primary and hot standbys of it (streaming replication), made for a test in a temporary
folder with the server's own programs (`initdb`, `pg_ctl`, `pg_basebackup -R`, in `pg_config
--bindir`) on free loopback ports, trusting local connections; stopped and removed afterwards.
`primary_and_standbys(count)` makes `count` standbys, in folders `standby`, `standby2`, ...;
`primary_and_standby()` the one.

The servers refuse to run as root: as root they run as the `postgres` system user (`runuser`).
Without the programs, or that user, the test skips, saying why.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from tests.pooler import free_port

SYSTEM_USER = "postgres"


def bindir() -> Path | None:
    """Where the server programs are: `pg_config --bindir`, else the first `initdb` on the PATH."""
    try:
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
        folder = Path(found.stdout.strip())
        if (folder / "initdb").exists():
            return folder
    except (OSError, subprocess.CalledProcessError):
        pass
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass(slots=True)
class Servers:
    folder: Path
    programs: Path
    primary_port: int
    standby_ports: tuple[int, ...]

    @property
    def standby_port(self) -> int:
        """The first standby's port."""
        return self.standby_ports[0]

    @property
    def standby_names(self) -> tuple[str, ...]:
        """The standbys' folder names (for `start`, `stop`), in the order of `standby_ports`."""
        return tuple(standby_name(index) for index in range(len(self.standby_ports)))

    def url(self, port: int, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{port}/{database}"

    @property
    def primary(self) -> str:
        return self.url(self.primary_port)

    @property
    def standby(self) -> str:
        return self.url(self.standby_port)

    def run(self, program: str, *arguments: str) -> None:
        command = [str(self.programs / program), *arguments]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder)

    def start(self, name: str) -> None:
        self.run(
            "pg_ctl", "-D", str(self.folder / name), "-l", str(self.folder / f"{name}.log"), "-w", "start"
        )

    def stop(self, name: str) -> None:
        self.run("pg_ctl", "-D", str(self.folder / name), "-m", "immediate", "-w", "stop")


def standby_name(index: int) -> str:
    return "standby" if index == 0 else f"standby{index + 1}"


def _settings(port: int, folder: Path) -> str:
    return "\n".join(
        [
            f"port = {port}",
            "listen_addresses = '127.0.0.1'",
            f"unix_socket_directories = '{folder}'",
            "fsync = off",
            "shared_buffers = 16MB",
            "max_connections = 60",
            "max_wal_senders = 8",
            "hot_standby = on",
            "hot_standby_feedback = on",
            "wal_receiver_status_interval = 1s",
            "",
        ]
    )


@contextmanager
def primary_and_standby() -> Iterator[Servers]:
    """A primary and one standby of it."""
    with primary_and_standbys(1) as servers:
        yield servers


@contextmanager
def primary_and_standbys(count: int = 1) -> Iterator[Servers]:
    """A primary and `count` standbys of it, each streaming from the primary."""
    import psycopg
    import pytest

    programs = bindir()
    if programs is None:
        pytest.skip("no PostgreSQL server programs (initdb, pg_ctl, pg_basebackup): pg_config --bindir")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            pytest.skip(f"initdb refuses root, and there is no {SYSTEM_USER!r} user to run it as")
        if shutil.which("runuser") is None:
            pytest.skip("initdb refuses root, and there is no runuser to run it as another user")
    folder = Path(tempfile.mkdtemp(prefix="zt_standby_"))
    if os.geteuid() == 0:
        shutil.chown(folder, SYSTEM_USER)
    servers = Servers(folder, programs, free_port(), tuple(free_port() for _ in range(count)))
    started: list[str] = []
    try:
        servers.run("initdb", "-D", str(folder / "primary"), "-U", "postgres", "-A", "trust", "--no-sync")
        with (folder / "primary" / "postgresql.conf").open("a") as conf:
            conf.write(_settings(servers.primary_port, folder))
        servers.start("primary")
        started.append("primary")
        for name, port in zip(servers.standby_names, servers.standby_ports, strict=True):
            servers.run(
                "pg_basebackup",
                *("-h", "127.0.0.1", "-p", str(servers.primary_port), "-U", "postgres"),
                *("-D", str(folder / name), "-R", "-X", "stream", "-c", "fast", "--no-sync"),
            )
            with (folder / name / "postgresql.conf").open("a") as conf:
                conf.write(_settings(port, folder))
            servers.start(name)
            started.append(name)
        deadline = time.monotonic() + 30
        while True:  # until every standby streams from the primary
            with psycopg.connect(servers.primary, autocommit=True) as primary:
                if primary.execute(
                    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"
                ).fetchone() == (count,):
                    break
            if time.monotonic() > deadline:
                raise TimeoutError("the standbys did not start streaming")
            time.sleep(0.1)
        yield servers
    except subprocess.CalledProcessError as error:
        pytest.skip(
            f"could not start a primary and a standby: {error.stderr.decode(errors='replace').strip()[-300:]}"
        )
    finally:
        for name in reversed(started):
            with suppress(subprocess.CalledProcessError):  # stopped by the test already
                servers.stop(name)
        shutil.rmtree(folder, ignore_errors=True)

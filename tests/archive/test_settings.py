"""The seed's memory configuration keys in pyproject.toml: all off by default, validated."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerolang.archive.settings import MemorySettings, load_memory_settings, memory_settings_for
from zerolang.util.errors import ZeroError


def settings(tmp_path: Path, text: str) -> MemorySettings:
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    load_memory_settings.cache_clear()
    return memory_settings_for(tmp_path)


def test_everything_is_off_by_default(tmp_path: Path) -> None:
    found = settings(tmp_path, "[project]\nname = 'x'\n")
    assert found == MemorySettings(source=tmp_path / "pyproject.toml")
    assert not (found.archive_enabled or found.index_sql_enabled or found.positional_enabled)
    assert found.compaction_mode == "off"


def test_every_key_in_tables(tmp_path: Path) -> None:
    found = settings(
        tmp_path,
        """
[tool.zero.memory.archive]
enabled = true
path = "var/archive"
policy = "/etc/zero/policy.toml"
[tool.zero.memory.index.sql]
enabled = true
dsn = "sqlite:///var/index.db"
[tool.zero.memory.positional]
enabled = true
provider = "sql"
[tool.zero.memory.compaction]
mode = "manual"
""",
    )
    assert found.archive_enabled and found.index_sql_enabled and found.positional_enabled
    assert found.archive_path == tmp_path / "var" / "archive"
    assert found.archive_policy == Path("/etc/zero/policy.toml")
    assert found.index_sql_dsn == f"sqlite:///{tmp_path / 'var' / 'index.db'}"
    assert (found.positional_provider, found.compaction_mode) == ("sql", "manual")


def test_dotted_keys_are_the_same_keys(tmp_path: Path) -> None:
    found = settings(
        tmp_path,
        '[tool.zero]\nmemory.archive.enabled = true\nmemory.index.sql.dsn = "sqlite::memory:"\n',
    )
    assert found.archive_enabled and found.index_sql_dsn == "sqlite::memory:"


def test_the_index_dsn_is_a_memory_store(tmp_path: Path) -> None:
    url = "postgresql://postgres@127.0.0.1:5432/zero"
    assert settings(tmp_path, f'[tool.zero]\nmemory.index.sql.dsn = "{url}"\n').index_sql_dsn == url
    found = settings(tmp_path, '[tool.zero]\nmemory.index.sql.dsn = "var/memory.db"\n')
    assert found.index_sql_dsn == str(tmp_path / "var" / "memory.db")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tool.zero.memory.archive]\nenable = true", "unknown setting memory.archive.enable"),
        ("[tool.zero.memory.vector]\nx = 1", "unknown setting memory.vector"),
        ("[tool.zero.memory.archive]\nenabled = 'yes'", "memory.archive.enabled must be true or false"),
        ("[tool.zero.memory.archive]\npath = ''", "memory.archive.path must be a non-empty string"),
        (
            "[tool.zero.memory.compaction]\nmode = 'always'",
            "memory.compaction.mode must be one of off, manual",
        ),
        ("[tool.zero.memory.positional]\nprovider = 'qdrant'", 'memory.positional.provider must be "sql"'),
        ("[tool.zero.memory.index.sql]\nenabled = true", "needs memory.index.sql.dsn"),
        ("[tool.zero.memory.index.sql]\ndsn = 'sqlite:x.db'", "dsn: not a SQLite location: 'sqlite:x.db'"),
        ("[tool.zero.memory.index.sql]\ndsn = ' '", "dsn must be a non-empty string"),
        (
            "[tool.zero.memory.positional]\nenabled = true",
            "positional.enabled needs memory.index.sql.enabled",
        ),
        ("[tool.zero]\nmemory = 3", r"\[tool.zero.memory\] must be a table"),
    ],
)
def test_bad_settings_name_the_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ZeroError, match=message) as caught:
        settings(tmp_path, text)
    assert str(tmp_path / "pyproject.toml") in caught.value.message

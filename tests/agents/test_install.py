"""`zero hook install claude-code|pi`: only our entries change, idempotently; --uninstall removes only ours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.agents import claude_settings
from zerolang.agents.claude_settings import HOOK_EVENTS, install, is_ours, uninstall

COMMAND = "/opt/zero/bin/zero hook claude-code"
THEIRS = {"type": "command", "command": "npx prettier --write", "timeout": 5}


def zero(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(cwd / "home")}
    for name in ("ZERO_EXPERIENCE_DB", "ZERO_MEMORY_DB", "ZERO_MEMORY_SPACE"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "zerolang", "hook", "install", *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_install_keeps_everything_else_and_is_idempotent() -> None:
    settings: dict[str, Any] = {
        "model": "opus",
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {"Stop": [{"hooks": [THEIRS]}], "PostToolUse": [{"matcher": "Edit", "hooks": [THEIRS]}]},
    }
    once = install(settings, COMMAND)
    assert once["model"] == "opus" and once["permissions"] == settings["permissions"]
    assert once["hooks"]["PostToolUse"] == settings["hooks"]["PostToolUse"]
    assert once["hooks"]["Stop"][0] == {"hooks": [THEIRS]}
    for event in HOOK_EVENTS:
        ours = [h for g in once["hooks"][event] for h in g["hooks"] if is_ours(h)]
        assert ours == [{"type": "command", "command": COMMAND, "timeout": 30}]
    assert install(once, COMMAND) == once
    moved = install(once, "/new/zero hook claude-code --db /x.db")
    assert sum(is_ours(h) for g in moved["hooks"]["Stop"] for h in g["hooks"]) == 1
    assert uninstall(moved) == settings
    assert settings["hooks"]["Stop"] == [{"hooks": [THEIRS]}]  # the given value is never changed


def test_uninstall_keeps_a_group_shared_with_other_hooks() -> None:
    shared = {"hooks": {"Stop": [{"hooks": [THEIRS, {"type": "command", "command": COMMAND}]}]}}
    assert uninstall(shared) == {"hooks": {"Stop": [{"hooks": [THEIRS]}]}}
    assert uninstall({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": COMMAND}]}]}}) == {}


hooks = st.lists(
    st.fixed_dictionaries(
        {
            "type": st.just("command"),
            "command": st.text(min_size=1).filter(lambda c: "hook claude-code" not in c),
        }
    ),
    min_size=1,
    max_size=2,
)
groups = st.lists(
    st.fixed_dictionaries({"hooks": hooks}, optional={"matcher": st.text(max_size=5)}), min_size=1, max_size=2
)
settings_values = st.fixed_dictionaries(
    {},
    optional={
        "hooks": st.dictionaries(
            st.sampled_from([*HOOK_EVENTS, "PreToolUse", "Notification"]), groups, min_size=1
        ),
        "model": st.text(max_size=5),
        "env": st.dictionaries(st.text(max_size=5), st.text(max_size=5)),
    },
)


@given(settings_values)
def test_uninstall_undoes_install(settings: dict[str, Any]) -> None:
    installed = install(settings, COMMAND)
    assert install(installed, COMMAND) == installed
    assert uninstall(installed) == settings


@pytest.mark.parametrize(("shared", "name"), [((), "settings.local.json"), (("--shared",), "settings.json")])
def test_the_command_installs_into_the_project_then_removes_only_ours(
    tmp_path: Path, shared: tuple[str, ...], name: str
) -> None:
    """By default this user's `.claude/settings.local.json` (the command holds an absolute path, so
    it is not for the shared file); `--shared` writes the project's `.claude/settings.json`."""
    path = tmp_path / ".claude" / name
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [THEIRS]}]}, "model": "opus"}, indent=4))
    first = zero(tmp_path, "claude-code", *shared, "--db", "rel.db", "--command", "/opt/zero/bin/zero")
    assert first.returncode == 0, first.stderr
    assert first.stdout == f"zero hooks installed in {path}\n"
    written = json.loads(path.read_text())
    assert written["model"] == "opus" and written["hooks"]["Stop"][0] == {"hooks": [THEIRS]}
    stop = written["hooks"]["Stop"][1]["hooks"][0]["command"]
    assert stop == f"/opt/zero/bin/zero hook claude-code --db {tmp_path / 'rel.db'}"
    other = tmp_path / ".claude" / ("settings.json" if not shared else "settings.local.json")
    assert not other.exists()
    second = zero(tmp_path, "claude-code", *shared, "--db", "rel.db", "--command", "/opt/zero/bin/zero")
    assert second.stdout == f"{path}: unchanged\n"
    removed = zero(tmp_path, "claude-code", *shared, "--uninstall")
    assert removed.stdout == f"zero hooks removed from {path}\n"
    assert json.loads(path.read_text()) == {"hooks": {"Stop": [{"hooks": [THEIRS]}]}, "model": "opus"}


def test_a_space_given_to_install_is_the_hook_s(tmp_path: Path) -> None:
    """`--space` fixes the hook's space in its command; without it the hook takes the settings'."""
    path = tmp_path / ".claude" / "settings.local.json"
    done = zero(tmp_path, "claude-code", "--db", "m.db", "--space", "alice", "--command", "/opt/zero")
    assert done.returncode == 0, done.stderr
    stop = json.loads(path.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert stop == f"/opt/zero hook claude-code --db {tmp_path / 'm.db'} --space alice"
    bad = zero(tmp_path, "pi", "--space", "no spaces here")
    assert bad.returncode == 1 and bad.stderr.startswith("error: not a space name")


def test_user_settings_and_the_default_command(tmp_path: Path) -> None:
    result = zero(tmp_path, "claude-code", "--user")
    assert result.returncode == 0, result.stderr
    path = tmp_path / "home" / ".claude" / "settings.json"
    command = json.loads(path.read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    program = command.split(" hook claude-code")[0]
    assert Path(program.split()[0]).is_absolute()
    assert not (tmp_path / ".claude").exists()


def test_a_settings_file_that_is_not_json_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text("{ not json")
    result = zero(tmp_path, "claude-code")
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
    assert "not JSON" in result.stderr and "nothing was changed" in result.stderr
    assert path.read_text() == "{ not json"
    assert zero(tmp_path, "cursor").returncode == 1


def test_update_file_without_a_file_and_nothing_to_remove(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    assert claude_settings.update_file(path, uninstall) is False and not path.exists()


def test_pi_extension_is_written_with_the_command_and_removed(tmp_path: Path) -> None:
    result = zero(tmp_path, "pi", "--command", "/opt/zero/bin/zero", "--budget", "500")
    assert result.returncode == 0, result.stderr
    path = tmp_path / ".pi" / "extensions" / "zero-memory.ts"
    text = path.read_text()
    line = next(line for line in text.splitlines() if line.startswith("const ZERO"))
    words = json.loads(json.loads(line.split("?? ", 1)[1].rstrip(");")))
    assert words == ["/opt/zero/bin/zero", "hook", "pi", "--budget", "500"]
    assert 'pi.on("agent_end"' in text and 'pi.on("before_agent_start"' in text
    assert zero(tmp_path, "pi", "--command", "/opt/zero/bin/zero", "--budget", "500").stdout.endswith(
        "unchanged\n"
    )
    assert zero(tmp_path, "pi", "--uninstall").returncode == 0 and not path.exists()
    path.write_text("// someone else's extension\n")
    refused = zero(tmp_path, "pi")
    assert refused.returncode == 1 and "not zero-memory's extension" in refused.stderr
    assert zero(tmp_path, "pi", "--uninstall").stdout.endswith("unchanged\n") and path.exists()

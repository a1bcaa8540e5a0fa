"""`zero hook install claude-code`: our hook entries merged into a Claude Code settings file.

Claude Code reads hooks from its settings files: `.claude/settings.local.json` in a project (this
user's, not shared: where `zero hook install` writes by default, since the command holds an
absolute path), `.claude/settings.json` (the project's shared file, `--shared`) and
`~/.claude/settings.json` (every project of the user, `--user`):

    {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "...", "timeout": 30}]}], ...}}

`install` adds one matcher group per event, holding our command, unless a hook of ours is there
already (then its command and timeout are brought up to date in place); `uninstall` removes only
our hooks, and the groups, events and `hooks` object they leave empty. Everything else in the
file (other keys, other hooks, their order) is kept as it was. A hook is ours when its command
runs `zero hook claude-code` (`is_ours`). Both are pure over the settings' JSON value; `update_file`
reads and writes the file (atomically, by a rename).
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerolang.util.errors import ZeroError

HOOK_EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
MARK = "hook claude-code"
TIMEOUT = 30  # seconds Claude Code waits; the command stops itself well before (`--timeout`)

Settings = dict[str, Any]


def is_ours(hook: object) -> bool:
    return isinstance(hook, dict) and isinstance(hook.get("command"), str) and MARK in hook["command"]


def install(settings: Settings, command: str, *, timeout: int = TIMEOUT) -> Settings:
    """`settings` with our hook on every event of `HOOK_EVENTS` (a new value; the given one is kept)."""
    out = copy.deepcopy(settings)
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ZeroError('the settings\' "hooks" is not a JSON object: fix or remove it first')
    entry = {"type": "command", "command": command, "timeout": timeout}
    for event in HOOK_EVENTS:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ZeroError(f'the settings\' "hooks.{event}" is not a JSON list: fix or remove it first')
        found = False
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            for index, hook in enumerate(inner if isinstance(inner, list) else ()):
                if is_ours(hook):
                    if not found:
                        inner[index] = {**hook, **entry}  # type: ignore[index]
                    found = True
        if not found:
            groups.append({"hooks": [entry]})
    return out


def uninstall(settings: Settings) -> Settings:
    """`settings` without our hooks (a new value); what is left empty by removing them goes too."""
    out = copy.deepcopy(settings)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept: list[Any] = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(is_ours(hook) for hook in inner):
                kept.append(group)
                continue
            rest = [hook for hook in inner if not is_ours(hook)]
            if rest:
                kept.append({**group, "hooks": rest})
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    if not hooks:
        del out["hooks"]
    return out


def settings_path(
    *, user: bool, shared: bool = False, project: Path | None = None, home: Path | None = None
) -> Path:
    """`~/.claude/settings.json` for the user; else in `project` (default: here) its own
    `.claude/settings.local.json`, or with `shared` the shared `.claude/settings.json`."""
    if user:
        return (home or Path.home()) / ".claude" / "settings.json"
    name = "settings.json" if shared else "settings.local.json"
    return (project or Path.cwd()) / ".claude" / name


def update_file(path: Path, change: Callable[[Settings], Settings]) -> bool:
    """Apply `change` to the settings file at `path` (absent: `{}`); whether the file changed."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except OSError as error:
        raise ZeroError(f"cannot read {path}: {error.strerror}") from None
    try:
        current = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as error:
        raise ZeroError(
            f"{path}:{error.lineno}:{error.colno}: not JSON ({error.msg}); nothing was changed"
        ) from None
    if not isinstance(current, dict):
        raise ZeroError(f"{path}: the settings must be a JSON object; nothing was changed")
    updated = change(current)
    if updated == current and (path.exists() or not updated):
        return False
    _write(path, json.dumps(updated, indent=2, ensure_ascii=False) + "\n")
    return True


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".settings.", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            if path.exists():
                os.chmod(temporary, path.stat().st_mode & 0o777)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise ZeroError(f"cannot write {path}: {error.strerror}") from None

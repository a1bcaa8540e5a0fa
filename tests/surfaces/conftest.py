"""Every surface on one memory: each writer and reader of `tests/surfaces`, told only the one setting.

The setting is either `$ZERO_MEMORY_DB`, in this process and in the `zero` commands it starts, or the
same location given as `--db` to every command and as `db` to every `open` (`--db` means the memory
everywhere); nothing else names a store (no `--experiences`, no `experiences=`). A writer stores one
conversation turn about a word of its own; a reader says whether it finds that word.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.agents.transcripts import ClaudeTranscript, payload
from tests.backends import scratch
from tests.hardening.support import zero

pytest.importorskip("mcp")
pytest.importorskip("starlette")
pytest.importorskip("agents")
pytest.importorskip("langgraph")


@dataclass(frozen=True, slots=True)
class Setting:
    """The one setting every surface reads, and a folder for the files a surface is handed."""

    env: dict[str, str]
    folder: Path
    db: str | None = None
    """The memory as `--db` and `open(db)` name it; None: `$ZERO_MEMORY_DB` names it."""

    def zero(self, *args: str, space: str | None = None) -> str:
        """`zero ARGS` (with `--db` when the setting gives it) in a process of its own, with the
        setting's environment and, when given, `space` as the settings' space ($ZERO_MEMORY_SPACE);
        its stdout."""
        env = self.env if space is None else {**self.env, "ZERO_MEMORY_SPACE": space}
        done = zero(*args, *(("--db", self.db) if self.db else ()), env=env)
        assert done.code == 0, done.stderr
        return done.stdout


@pytest.fixture(params=["sqlite-env", "sqlite-db", "postgres-env", "postgres-db"])
def setting(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Setting]:
    """A fresh memory (a SQLite file, or a scratch PostgreSQL database) named by `$ZERO_MEMORY_DB`
    or by `--db`, with no per-user store or configuration of the machine in reach."""
    engine, _, how = request.param.partition("-")

    def made(location: str) -> Setting:
        env = {
            "ZERO_MEMORY_DB": location if how == "env" else "",
            "ZERO_MEMORY_SPACE": "",
            "ZERO_EXPERIENCE_DB": "",
            "ZERO_ARCHIVE": str(tmp_path / "archive"),
            "HOME": str(tmp_path / "home"),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.chdir(tmp_path)
        return Setting(env, tmp_path, None if how == "env" else location)

    if engine == "sqlite":
        yield made(str(tmp_path / "memory.db"))
        return
    with scratch() as url:
        yield made(url)


def said(word: str) -> tuple[str, str]:
    """The turn a writer stores about `word`: the user's question and the agent's answer."""
    return f"What about the {word} plan?", f"The {word} plan ships on Friday after review."


# ---- writers: each stores one turn about `word` through its surface -----------------------------


def write_cli(setting: Setting, word: str, space: str | None = None) -> None:
    """`zero capture` of an OpenAI chat file."""
    question, answer = said(word)
    chat = setting.folder / f"{word}.json"
    messages = [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
    chat.write_text(json.dumps({"id": f"chat-{word}", "messages": messages}), encoding="utf-8")
    setting.zero("capture", str(chat), *(("--space", space) if space else ()))


def write_hook(setting: Setting, word: str, space: str | None = None) -> None:
    """`zero hook claude-code` on a Stop event of a Claude Code transcript, in the settings' space."""
    transcript = ClaudeTranscript(
        setting.folder / f"{word}.jsonl", f"{word[:8]:0<8}-aaaa-4bbb-8ccc-000000000001"
    )
    transcript.turn(*said(word))
    event = setting.folder / f"{word}-stop.json"
    event.write_text(payload("Stop", transcript), encoding="utf-8")
    assert setting.zero("hook", "claude-code", "--event", str(event), space=space) == ""


def write_mcp(setting: Setting, word: str, space: str | None = None) -> None:
    """The MCP `store` tool with a turn, through the SDK's client in this process."""
    question, answer = said(word)
    turn = {"session": f"mcp-{word}", "user_said": question, "agent_said": answer}
    result = call_mcp(setting, space, "store", {"turn": turn})
    assert result["turns"] == 1, result


def write_api(setting: Setting, word: str, space: str | None = None) -> None:
    """`Memory.capture` of the Python API."""
    import zerolang.memory

    question, answer = said(word)
    with zerolang.memory.open(setting.db, space=space) as memory:
        memory.capture(session=f"api-{word}", user_said=question, agent_said=answer)


def write_openai(setting: Setting, word: str, space: str | None = None) -> None:
    """The OpenAI Agents session: a user item, then the agent's answer, which closes the turn."""
    from zerolang.agents.openai_agents import ZeroSession

    question, answer = said(word)
    with ZeroSession.open(f"openai-{word}", setting.db, space=space) as session:
        items: list[Any] = [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
        asyncio.run(session.add_items(items))


WRITERS: dict[str, Callable[[Setting, str, str | None], None]] = {
    "cli": write_cli,
    "hook": write_hook,
    "mcp": write_mcp,
    "api": write_api,
    "openai-agents": write_openai,
}

# ---- readers: whether each finds what was said about `word` -----------------------------------


def read_cli(setting: Setting, word: str, space: str | None = None) -> bool:
    """`zero recall WORD --json`."""
    out = setting.zero("recall", word, "--json", *(("--space", space) if space else ()))
    return f"{word} plan ships" in out


def read_hook(setting: Setting, word: str, space: str | None = None) -> bool:
    """`zero hook claude-code` on a prompt of a new session, in the settings' space: the context it
    puts before the model."""
    transcript = ClaudeTranscript(setting.folder / "asking.jsonl", "99999999-aaaa-4bbb-8ccc-000000000009")
    event = setting.folder / f"ask-{word}.json"
    event.write_text(
        payload("UserPromptSubmit", transcript, prompt=f"remind me of the {word} plan"), encoding="utf-8"
    )
    return f"{word} plan ships" in setting.zero("hook", "claude-code", "--event", str(event), space=space)


def read_mcp(setting: Setting, word: str, space: str | None = None) -> bool:
    """The MCP `recall` tool."""
    context = call_mcp(setting, space, "recall", {"text": word})["context"]
    return f"{word} plan ships" in context


def read_api(setting: Setting, word: str, space: str | None = None) -> bool:
    """`Memory.recall` of the Python API."""
    import zerolang.memory

    with zerolang.memory.open(setting.db, space=space) as memory:
        return any(f"{word} plan ships" in hit.experience.what for hit in memory.recall_turns(word))


def read_explorer(setting: Setting, word: str, space: str | None = None) -> bool:
    """The explorer's experience search, under Starlette's test client."""
    from starlette.testclient import TestClient

    import zerolang.memory
    from zerolang.explore.app import build_app
    from zerolang.explore.reads import Explorer
    from zerolang.explore.worker import Worker

    with Worker(lambda: Explorer(zerolang.memory.open(setting.db, space=space, create=False))) as worker:
        page = TestClient(build_app(worker, ["testserver"])).get("/experiences", params={"q": word})
    assert page.status_code == 200
    return f"{word} plan ships" in page.text


READERS: dict[str, Callable[[Setting, str, str | None], bool]] = {
    "cli": read_cli,
    "hook": read_hook,
    "mcp": read_mcp,
    "api": read_api,
    "explorer": read_explorer,
}


WORDS = {
    "cli": "quokkaline",
    "hook": "zephyrbolt",
    "mcp": "marzipanic",
    "api": "oktoberglow",
    "openai-agents": "velvetrune",
}
"""The word each writer's turn is about."""


def write_all(setting: Setting, space: str | None = None) -> None:
    """Each writer stores its turn about its word (`WORDS`), in `space`."""
    for writer, word in WORDS.items():
        WRITERS[writer](setting, word, space)


def found(setting: Setting, space: str | None = None) -> list[tuple[str, str]]:
    """(reader, writer): each writer's word a reader finds, reading in `space`."""
    return [
        (reader, writer)
        for reader, read in READERS.items()
        for writer, word in WORDS.items()
        if read(setting, word, space)
    ]


def call_mcp(setting: Setting, space: str | None, tool: str, arguments: dict[str, Any]) -> Any:
    """One tool call to a server over the memory the setting names, as `zero mcp [--space]` serves it."""
    from mcp import Client

    import zerolang.memory
    from zerolang.mcp.server import build_server

    found: list[Any] = []

    async def main() -> None:
        with zerolang.memory.open(setting.db, space=space) as memory:
            async with Client(build_server(memory)) as client:
                result = await client.call_tool(tool, arguments)
                found.append(result.structured_content)

    anyio.run(main)
    return found[0]

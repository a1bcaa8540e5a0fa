"""`ZeroSession` under the OpenAI Agents SDK's own `Runner`, with a scripted model (no network).

Each test runs on a SQLite file and on a PostgreSQL database (`experience_db`). What the model
received on each turn is the history the session gave back; the turns end up as conversation
turns and as experiences in three layers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, Model, ModelResponse, Runner, function_tool, set_tracing_disabled
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from tests.memory_stores import experiences_of
from zerolang.agents.openai_agents import ZeroSession
from zerolang.convo.memory import ConversationMemory
from zerolang.storage import open_conversations, open_experiences

set_tracing_disabled(True)  # no trace export: the tests touch no network


def said(text: str, n: int) -> ResponseOutputMessage:
    part = ResponseOutputText(type="output_text", text=text, annotations=[])
    return ResponseOutputMessage(
        id=f"msg_{n}", type="message", role="assistant", status="completed", content=[part]
    )


def call(name: str, arguments: dict[str, Any], n: int) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        id=f"fc_{n}", call_id=f"call_{n}", type="function_call", name=name, arguments=json.dumps(arguments)
    )


class ScriptedModel(Model):
    """Answers from a script, one response per call, and keeps every input it was given."""

    def __init__(self, script: list[list[Any]]) -> None:
        self.script = list(script)
        self.inputs: list[list[dict[str, Any]]] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else input
        self.inputs.append(json.loads(json.dumps(items, default=str)))
        return ModelResponse(output=self.script.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


@function_tool
def read_notes(topic: str) -> str:
    """Read the notes on a topic."""
    return f"notes on {topic}: the Philokalia reading list is in philokalia-reading-list.md"


def texts(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(role or type, text) of each item a model received."""
    out = []
    for item in items:
        if item.get("type") == "function_call":
            out.append(("function_call", item["name"]))
        elif item.get("type") == "function_call_output":
            out.append(("function_call_output", str(item["output"])))
        else:
            content = item["content"]
            text = content if isinstance(content, str) else " ".join(part["text"] for part in content)
            out.append((item["role"], text))
    return out


@pytest.fixture
def session(experience_db: str) -> Iterator[ZeroSession]:
    with ZeroSession.open("chat-42", experience_db, user="David", agent="Lilu") as opened:
        yield opened


def test_the_runner_gets_the_history_from_the_session_and_the_turns_are_captured(
    session: ZeroSession, experience_db: str
) -> None:
    model = ScriptedModel(
        [
            [said("Hello David. What shall we read?", 1)],
            [call("read_notes", {"topic": "Philokalia"}, 2)],
            [said("The list is philokalia-reading-list.md; Melissa can have it too.", 3)],
            [said("You asked about the Philokalia reading list.", 4)],
        ]
    )
    agent = Agent(name="Lilu", instructions="You are Lilu.", model=model, tools=[read_notes])

    async def run() -> list[str]:
        answers = []
        for prompt in (
            "Hi, I am David.",
            "Melissa wants to learn about the Philokalia too.",
            "What did I ask?",
        ):
            result = await Runner.run(agent, prompt, session=session)
            answers.append(str(result.final_output))
        return answers

    answers = asyncio.run(run())
    assert answers[-1] == "You asked about the Philokalia reading list."
    received = [texts(items) for items in model.inputs]
    assert received[0] == [("user", "Hi, I am David.")]
    assert received[1] == [
        ("user", "Hi, I am David."),
        ("assistant", "Hello David. What shall we read?"),
        ("user", "Melissa wants to learn about the Philokalia too."),
    ]
    assert received[2] == [
        *received[1],
        ("function_call", "read_notes"),
        (
            "function_call_output",
            "notes on Philokalia: the Philokalia reading list is in philokalia-reading-list.md",
        ),
    ]
    assert received[3] == [
        *received[2],
        ("assistant", "The list is philokalia-reading-list.md; Melissa can have it too."),
        ("user", "What did I ask?"),
    ]
    # the session holds exactly what the SDK added, items and all
    history = asyncio.run(session.get_items())
    assert texts(history) == [*received[3], ("assistant", "You asked about the Philokalia reading list.")]
    assert asyncio.run(session.get_items(limit=2)) == history[-2:]

    # three turns in conversation memory, searchable as `zero convo search` finds them
    with open_conversations(experiences_of(experience_db), create=False) as entries:
        memory = ConversationMemory(entries, "chat-42")
        turns = memory.turns()
        assert [turn["iteration"] for turn in turns] == [1, 2, 3]
        assert turns[1]["tool_calls"] == 1
        assert [hit.key for hit in memory.search("Melissa")][:1] == ["agent:chat-42:turn:2"]
        assert memory.restore()[0].content == "Hi, I am David."

    # ... and captured as experiences in three layers, who said what
    with open_experiences(experiences_of(experience_db), create=False) as experiences:
        counts = experiences.counts()
        assert counts["turns"] == 3
        from zerolang.experience.recall import recall

        hits = recall(experiences, "Philokalia reading list", limit=10)
        found = {(hit.experience.layer.value, hit.experience.who) for hit in hits}
        assert ("input", "David") in found and ("output", "Lilu") in found
        assert ("contemplation", "read_notes") in found  # the tool's output, under its name


def test_pruning_keeps_system_messages_within_the_limits_and_never_an_orphan_tool_output(
    experience_db: str,
) -> None:
    with ZeroSession.open("pruned", experience_db, max_messages=3) as session:
        items: list[Any] = [
            {"role": "developer", "content": "Answer briefly."},
            {"role": "user", "content": "one"},
            {"type": "function_call", "call_id": "c1", "name": "read_notes", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "notes"},
            {"role": "assistant", "content": "two"},
        ]
        asyncio.run(session.add_items(items))
        kept = asyncio.run(session.get_items())
        # the developer message stays; of the last two others, the output's call was pruned: it goes too
        assert kept == [items[0], items[4]]
        assert asyncio.run(session.pop_item()) == items[4]
        assert asyncio.run(session.get_items()) == [items[0]]
        asyncio.run(session.clear_session())
        assert asyncio.run(session.get_items()) == []
        assert asyncio.run(session.pop_item()) is None


def test_token_limit_and_ttl(experience_db: str) -> None:
    now = [1_700_000_000.0]
    with ZeroSession.open("ttl", experience_db, max_tokens=8, ttl=60, clock=lambda: now[0]) as session:
        long = {"role": "user", "content": "a long message of many words that costs more than eight tokens"}
        short = {"role": "assistant", "content": "ok"}
        asyncio.run(session.add_items([long, short]))
        assert asyncio.run(session.get_items()) == [short]
        now[0] += 59
        assert asyncio.run(session.get_items()) == [short]
        now[0] += 2  # past the TTL: the session starts afresh
        assert asyncio.run(session.get_items()) == []


def test_a_bad_session_id_is_one_clear_error(tmp_path: Any) -> None:
    from zerolang.util.errors import ZeroError

    with pytest.raises(ZeroError, match="agent name 'a:b'"):
        ZeroSession.open("a:b", str(tmp_path / "x.db"))

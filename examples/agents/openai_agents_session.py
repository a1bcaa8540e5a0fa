"""The OpenAI Agents SDK's `Runner` with 0-memory as its session (`ZeroSession`), offline.

    python examples/agents/openai_agents_session.py /tmp/experiences.db

A scripted model stands in for a real one (swap in `model="gpt-4.1"` and an API key); it prints
what it receives each turn: the history the session gave back. The turns land in conversation
memory (`zero convo`) and as experiences (`zero recall`) in the same database.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from agents import Agent, Model, ModelResponse, Runner, function_tool, set_tracing_disabled
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from zerolang.agents.openai_agents import ZeroSession


def said(text: str) -> ResponseOutputMessage:
    part = ResponseOutputText(type="output_text", text=text, annotations=[])
    return ResponseOutputMessage(
        id="msg", type="message", role="assistant", status="completed", content=[part]
    )


SCRIPT: list[list[Any]] = [
    [said("Hello David. What shall we read?")],
    [
        ResponseFunctionToolCall(
            id="fc",
            call_id="call_1",
            type="function_call",
            name="read_notes",
            arguments=json.dumps({"topic": "Philokalia"}),
        )
    ],
    [said("It is philokalia-reading-list.md; Melissa can have it too.")],
]


class ScriptedModel(Model):
    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else input
        print(f"  model receives {len(items)} items: " + ", ".join(describe(item) for item in items))
        return ModelResponse(output=SCRIPT.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def describe(item: Any) -> str:
    if item.get("type") == "function_call":
        return f"call {item['name']}"
    if item.get("type") == "function_call_output":
        return "tool output"
    return str(item["role"])


@function_tool
def read_notes(topic: str) -> str:
    """Read the notes on a topic."""
    return f"notes on {topic}: the reading list is philokalia-reading-list.md"


async def main(db: str) -> None:
    set_tracing_disabled(True)  # offline: no trace export
    agent = Agent(name="Lilu", instructions="You are Lilu.", model=ScriptedModel(), tools=[read_notes])
    with ZeroSession.open("chat-42", db, user="David", agent="Lilu", max_messages=50) as session:
        for prompt in ("Hi, I am David.", "Melissa wants to learn about the Philokalia too."):
            print(f"> {prompt}")
            result = await Runner.run(agent, prompt, session=session)
            print(f"< {result.final_output}")
        print(f"the session holds {len(await session.get_items())} items")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

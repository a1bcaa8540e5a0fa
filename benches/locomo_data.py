"""LoCoMo conversations as transcripts, and its questions: what bench_locomo.py reads.

Each session of a conversation becomes one OpenAI-style chat transcript (JSONL):
`speaker_a` speaks as the user, `speaker_b` as the assistant, each message with
its speaker's `name`, its `dia_id` as `id`, the session's date as `timestamp`,
and a shared photo written the way LoCoMo's own evaluation writes it
(`[shares a photo: <caption>]`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Question:
    conversation: str
    question: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Conversation:
    sample_id: str
    sessions: list[list[dict[str, Any]]]  # OpenAI chat messages per session
    turns: dict[str, str]  # dia_id -> the turn as one line of text
    questions: list[Question]
    session_of: dict[str, int]  # dia_id -> the number of the session it was said in


def turn_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", ""))
    caption = turn.get("blip_caption")
    return f"{text} [shares a photo: {caption}]" if caption else text


def _session_numbers(conversation: dict[str, Any]) -> list[int]:
    numbers = []
    for key, value in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(value, list) and value:
            numbers.append(int(match.group(1)))
    return sorted(numbers)


_DIA = re.compile(r"D\d+:\d+")


def load(path: str | Path) -> list[Conversation]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: list[Conversation] = []
    for sample in data:
        conversation = sample["conversation"]
        speaker_a = conversation["speaker_a"]
        sessions: list[list[dict[str, Any]]] = []
        turns: dict[str, str] = {}
        session_of: dict[str, int] = {}
        for number in _session_numbers(conversation):
            when = conversation.get(f"session_{number}_date_time", "")
            messages = []
            for turn in conversation[f"session_{number}"]:
                text = turn_text(turn)
                turns[turn["dia_id"]] = f"{turn['speaker']}: {text}"
                session_of[turn["dia_id"]] = number
                messages.append(
                    {
                        "role": "user" if turn["speaker"] == speaker_a else "assistant",
                        "name": turn["speaker"],
                        "id": turn["dia_id"],
                        "timestamp": when,
                        "content": text,
                    }
                )
            sessions.append(messages)
        questions = []
        for qa in sample["qa"]:
            # a few evidence entries hold several ids in one string ("D8:6; D9:17"): split them
            evidence = tuple(dict.fromkeys(m for item in qa.get("evidence", []) for m in _DIA.findall(item)))
            evidence = tuple(e for e in evidence if e in turns)
            if evidence:
                questions.append(Question(sample["sample_id"], qa["question"], int(qa["category"]), evidence))
        out.append(Conversation(sample["sample_id"], sessions, turns, questions, session_of))
    return out


def write_transcripts(conversation: Conversation, folder: Path) -> list[Path]:
    paths = []
    for index, messages in enumerate(conversation.sessions, start=1):
        path = folder / f"{conversation.sample_id}-session-{index}.jsonl"
        path.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages), encoding="utf-8")
        paths.append(path)
    return paths

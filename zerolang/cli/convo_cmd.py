"""`zero convo`: conversation memory for agent runtimes (seed 003).

Entries live in the experience database of the memory `--db` names, in `--space` (as on every
command; `--experiences` or `$ZERO_EXPERIENCE_DB` names that database apart), under the seed's
keys, `agent:{name}:conversation` and `agent:{name}:turn:{n}`.
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from zerolang.cli.errors import reports_errors
from zerolang.cli.terminal import echo
from zerolang.cli.typer_options import (
    DbOption,
    ExperiencesOption,
    JsonOption,
    SettledSpaceOption,
    TtlOption,
)
from zerolang.memory.settings import Stores
from zerolang.util.escapes import escaped, json_text

if TYPE_CHECKING:
    from zerolang.convo.memory import ConversationMemory
    from zerolang.convo.store import EntryStore

convo_app = typer.Typer(
    name="convo",
    help="Conversation memory for agents: store turns, restore history, prune, expire, search.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

Agent = Annotated[str, typer.Argument(help="The agent's name.", show_default=False)]
MaxMessages = Annotated[
    int,
    typer.Option("--max-messages", min=1, metavar="N", help="Keep at most N messages (system ones always)."),
]
MaxTokens = Annotated[
    int | None,
    typer.Option("--max-tokens", min=1, metavar="N", help="Keep at most N cl100k tokens of history."),
]


def _store(where: Stores, *, create: bool) -> EntryStore:
    """The conversation entries of the memory `where` names (the memory's purges reach their database
    first when `create`: `zerolang.memory.opening.open_conversations_of`)."""
    from zerolang.cli.experience_store import open_entries

    return open_entries(where, create=create)


def _memory(
    store: EntryStore,
    agent: str,
    max_messages: int = 100,
    max_tokens: int | None = None,
    ttl: float | None = None,
) -> ConversationMemory:
    from zerolang.convo.memory import ConversationMemory

    return ConversationMemory(store, agent, max_messages=max_messages, max_tokens=max_tokens, ttl=ttl)


def _print(document: object) -> None:
    sys.stdout.write(json_text(document) + "\n")


# Every subcommand takes where its memory is (`--db`, `--space`, `--experiences`), declared here once
# and resolved once (`experience_store.stores_of`): the command gets the `Stores` as `where`.
_WHERE = (
    inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=DbOption),
    inspect.Parameter("space", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=SettledSpaceOption),
    inspect.Parameter(
        "experiences", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ExperiencesOption
    ),
)


def _command(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a subcommand behind the app's error boundary, with the options naming its memory."""

    def register(function: Callable[..., None]) -> Callable[..., None]:
        def run(
            *args: Any, db: str | None, space: str | None, experiences: Path | None, **kwargs: Any
        ) -> None:
            from zerolang.cli.experience_store import stores_of

            function(*args, where=stores_of(db, space=space, experiences=experiences), **kwargs)

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            reports_errors(run)(*args, **kwargs)

        own = [p for p in inspect.signature(function, eval_str=True).parameters.values() if p.name != "where"]
        parameters = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY) if p.default is not inspect.Parameter.empty else p
            for p in own
        ]
        wrapper.__signature__ = inspect.Signature([*parameters, *_WHERE], return_annotation=None)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in (*parameters, *_WHERE)}
        convo_app.command(name)(wrapper)
        return function

    return register


@_command("store")
def store_turn(
    agent: Agent,
    where: Stores,
    file: Annotated[
        Path, typer.Argument(help="The whole history so far: a JSON list of {role, content} messages.")
    ],
    iteration: Annotated[
        int | None, typer.Option("--iteration", min=1, help="Default: the next one.")
    ] = None,
    input_tokens: Annotated[
        int | None, typer.Option("--input-tokens", min=0, help="Default: counted.")
    ] = None,
    output_tokens: Annotated[
        int | None, typer.Option("--output-tokens", min=0, help="Default: counted.")
    ] = None,
    ttl: TtlOption = None,
    max_messages: MaxMessages = 100,
    max_tokens: MaxTokens = None,
    as_json: JsonOption = False,
) -> None:
    """Store a finished turn: the (pruned) history and the turn's metadata."""
    from zerolang.convo.memory import check_ttl
    from zerolang.convo.model import ChatMessage
    from zerolang.util.errors import ZeroError

    check_ttl(ttl, "--ttl")  # before anything is read or opened
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ZeroError(f"{file}: no such file") from None
    except json.JSONDecodeError as error:
        raise ZeroError(f"{file}:{error.lineno}:{error.colno}: malformed JSON: {error.msg}") from None
    if isinstance(raw, dict) and "messages" in raw:
        raw = raw["messages"]
    if not isinstance(raw, list):
        raise ZeroError(f"{file}: expected a JSON list of messages")
    history = [ChatMessage.from_json(item, f"{file}: message {n}") for n, item in enumerate(raw, start=1)]
    with _store(where, create=True) as store:
        meta = _memory(store, agent, max_messages, max_tokens, ttl).store_turn(
            history, iteration=iteration, input_tokens=input_tokens, output_tokens=output_tokens
        )
    document = {key: value for key, value in meta.to_json().items() if key != "messages"}
    if as_json:
        _print(document)
        return
    echo(
        f"Stored agent:{escaped(agent)}:turn:{meta.iteration}: {meta.message_count} messages, "
        f"{meta.input_tokens} input and {meta.output_tokens} output tokens, "
        f"{meta.tool_calls} tool call{'' if meta.tool_calls == 1 else 's'}"
    )


@_command("restore")
def restore(
    agent: Agent,
    where: Stores,
    max_messages: MaxMessages = 100,
    max_tokens: MaxTokens = None,
) -> None:
    """Print the agent's history (pruned) as a JSON list of messages; [] when there is none."""
    with _store(where, create=False) as store:
        history = _memory(store, agent, max_messages, max_tokens).restore()
    _print([message.to_json() for message in history])


@_command("turns")
def turns(
    agent: Agent,
    where: Stores,
    as_json: JsonOption = False,
) -> None:
    """List the agent's stored turns with their metadata."""
    with _store(where, create=False) as store:
        found = _memory(store, agent).turns()
    if as_json:
        _print([{k: v for k, v in turn.items() if k != "messages"} for turn in found])
        return
    echo("iteration  messages  input  output  tools  timestamp")
    for turn in found:
        echo(
            f"{turn['iteration']:>9}  {turn['message_count']:>8}  {turn['input_tokens']:>5}  "
            f"{turn['output_tokens']:>6}  {turn['tool_calls']:>5}  {turn['timestamp']}"
        )


@_command("search")
def search(
    agent: Agent,
    where: Stores,
    text: Annotated[str, typer.Argument(help="Words to look for in the agent's turns.", show_default=False)],
    limit: Annotated[int, typer.Option("--limit", min=1)] = 10,
    as_json: JsonOption = False,
) -> None:
    """Search the agent's turns (full text, bm25), best first."""
    with _store(where, create=False) as store:
        hits = _memory(store, agent).search(text, limit)
    if as_json:
        _print(
            [{"key": hit.key, "score": hit.score, "matched": hit.matched, "turn": hit.turn} for hit in hits]
        )
        return
    from zerolang.experience.words import terms

    wanted = terms(text)
    for hit in hits:
        message = hit.message or {}
        said = excerpt(str(message.get("content") or ""), wanted)
        role = f"{escaped(str(message.get('role')))}: " if message else ""
        echo(f"{escaped(hit.key)}  {hit.score:.3f}  {role}{escaped(said)}")


EXCERPT = 160  # characters of a matched message a search line shows


def excerpt(content: str, wanted: list[str], width: int = EXCERPT) -> str:
    """The message on one line (its whitespace collapsed); when longer than `width`, the part
    around its first word the query matched, `…` marking what was cut."""
    text = " ".join(content.split())
    if len(text) <= width:
        return text
    low = text.lower()
    starts = [at for term in wanted if (at := low.find(term[:5])) >= 0]
    first = min(starts, default=0)
    begin = max(0, min(first - width // 4, len(text) - width))
    if begin > 0:
        space = text.find(" ", begin)
        begin = space + 1 if 0 <= space < first else begin
    part = text[begin : begin + width]
    return ("…" if begin > 0 else "") + part + ("…" if begin + width < len(text) else "")


@_command("cleanup")
def cleanup(
    agent: Agent,
    where: Stores,
) -> None:
    """Delete the agent's expired entries now (reads already skip and delete them)."""
    with _store(where, create=False) as store:
        removed = _memory(store, agent).cleanup()
    echo(f"Removed {removed} expired entr{'y' if removed == 1 else 'ies'}.")

"""What `zero hook claude-code|pi` does once its options are read, without typer: the typer commands
(`zerolang.cli.hook_cmd`), the lean path (`zerolang.cli.hook_client`, what an installed hook runs) and
the warm server it asks (`zerolang.cli.hook_server`) call it.

A hook command never blocks the agent: whatever fails (bad input, an unreachable store, the time
limit) it exits 0 with one line on stderr, having changed nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerolang.agents.context import Facts
    from zerolang.experience.store import ExperienceStore
    from zerolang.knowledge.store import MemoryStore

from zerolang.cli.hook_defaults import gave_up


class _Expired(Exception):
    pass


def run_hook(
    db: str | Path | None,
    timeout: float,
    act: Callable[[ExperienceStore, str, Facts], str],
    *,
    event: Path | None = None,
    space: str | None = None,
    text: str | None = None,
    left: float | None = None,
) -> None:
    """Read the event (`text`, else the file `event`, else stdin), act on the experience store of the
    memory `db` names in `space` (each else as the settings say:
    `zerolang.memory.settings.resolve_stores`) and, when a recall asks for them, its facts (opened to
    read on first use: a capture opens none), print what `act` returns; never a failure exit. It
    gives up after `timeout` seconds, or the `left` of them when part was spent already."""
    import signal
    from contextlib import ExitStack

    from zerolang.cli.experience_store import open_store, stores_of

    timed = hasattr(signal, "setitimer")
    previous = None
    try:
        if timed:

            def expired(_signal: int, _frame: object) -> None:
                raise _Expired

            previous = signal.signal(signal.SIGALRM, expired)
            if left is not None and left <= 0:
                raise _Expired
            signal.setitimer(signal.ITIMER_REAL, timeout if left is None else left)
        if text is None:
            text = sys.stdin.read() if event is None else event.read_text(encoding="utf-8")
        stores = stores_of(db, space=space)
        with ExitStack() as opened:
            store = opened.enter_context(open_store(stores, create=True))

            def facts() -> MemoryStore | None:
                if stores.memory.holds_nothing_yet:
                    return None
                from zerolang.memory.opening import open_facts
                from zerolang.util.errors import ZeroError

                try:
                    return opened.enter_context(open_facts(stores=stores, create=False))
                except ZeroError:  # a server's database that holds conversations but no facts yet
                    return None

            output = act(store, text, facts)
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout.write(output)
        sys.stdout.flush()
    except _Expired:
        _say(gave_up(timeout))
    except Exception as error:  # any failure: one line, and the agent goes on
        report(error)
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if previous is not None:
                signal.signal(signal.SIGALRM, previous)


def report(error: Exception) -> None:
    """A hook's failure as its one line on stderr."""
    from zerolang.util.errors import ZeroError

    _say(error.headline() if isinstance(error, ZeroError) else f"{type(error).__name__}: {error}")


def _say(message: str) -> None:
    from zerolang.cli.output import escaped

    sys.stderr.write(f"zero hook: {escaped(' '.join(message.split()))}\n")


def run_runtime(
    runtime: str,
    db: str | None,
    budget: int | None,
    timeout: float,
    *,
    text: str,
    left: float | None = None,
    space: str | None = None,
) -> None:
    """`runtime`'s hook (`RUNTIMES`) on the event `text`, the budget its default when None."""
    from zerolang.agents.context import DEFAULT_BUDGET

    run = claude_code if runtime == "claude-code" else pi
    run(db, DEFAULT_BUDGET if budget is None else budget, timeout, space=space, text=text, left=left)


def claude_code(
    db: str | Path | None,
    budget: int,
    timeout: float,
    event: Path | None = None,
    *,
    space: str | None = None,
    text: str | None = None,
    left: float | None = None,
) -> None:
    """Claude Code's hook on the event `text`, else read from `event`, else stdin."""

    def act(store: ExperienceStore, text: str, facts: Facts) -> str:
        from zerolang.agents.claude_code import Payload, handle

        return handle(store, Payload.parse(text), budget=budget, facts=facts).output

    run_hook(db, timeout, act, event=event, space=space, text=text, left=left)


def pi(
    db: str | Path | None,
    budget: int,
    timeout: float,
    event: Path | None = None,
    *,
    space: str | None = None,
    text: str | None = None,
    left: float | None = None,
) -> None:
    """pi's extension hook on the event `text`, else read from `event`, else stdin."""

    def act(store: ExperienceStore, text: str, facts: Facts) -> str:
        from zerolang.agents.pi import PiEvent, handle
        from zerolang.util.escapes import escaped_lines

        # Recalled transcript text is data, shown as `zero recall` shows it: escaped, line breaks kept.
        return escaped_lines(handle(store, PiEvent.parse(text), budget=budget, facts=facts)[0], exact=False)

    run_hook(db, timeout, act, event=event, space=space, text=text, left=left)

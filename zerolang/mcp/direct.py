"""The knowledge-graph tools' calls answered straight from the wire, without the SDK's per-call work.

A call through the SDK is parsed into models, routed, its envelope classified, its arguments
validated by pydantic, its result wrapped in models and dumped again: more time than our tool
itself takes to answer. `Direct` answers the calls it is sure of the same way, in one pass:

- a `tools/call` of one of these tools, with exactly the tool's arguments, each of its declared
  type as it is (a string is a string, a list a list, an object has its keys: `shaped`), a
  JSON-RPC id, and nothing else in the message;
- whose envelope (`params._meta`) equals one the SDK has already accepted for a `tools/call` of
  this connection (`learn` watches the SDK's answers): the envelope decides the protocol era and
  version, so a call of an era or version the SDK refuses is never answered here;
- whose text holds no escaped surrogate (the SDK refuses a lone one; a pair is left to it too).

Everything else (the first call, other methods and tools, arguments the SDK would convert or
refuse, a `_meta` with more in it) goes to the SDK, so what a client can observe is the same.
The result is the SDK's: the same structured content and text (`ResultText`), the fields the SDK
adds to a result (learned from its own answer, e.g. the server's `_meta` stamp), and a failure is
the same one-line tool error (`refusal`).

Calls answered here run when their line is read, on the event loop (as the SDK runs these tools);
calls in flight together have no order either way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin, get_type_hints

from typing_extensions import is_typeddict

Structured = dict[str, Any]
Call = Callable[..., Structured]  # the tool's arguments, by name → its structured result
ResultText = Callable[[Structured], str]  # a result's structured content → its text content
Refusal = Callable[[str, BaseException], str]  # a tool's name and what it raised → the error's text

_SURROGATE = re.compile(r"\\u[dD][89abAB]")
_KNOWN_LIMIT = 8  # envelopes kept (a client sends one; a few cover a proxy's several clients)
_PENDING_LIMIT = 256  # calls sent to the SDK whose answer is awaited (more: forget the oldest)
_RESULT_FIELDS = ("content", "structuredContent", "isError")


@dataclass(frozen=True, slots=True)
class Tool:
    call: Call
    arguments: dict[str, Any]  # each argument's declared type (all are required)


def tool(call: Call, declared: Callable[..., Any]) -> Tool:
    """`call` with the argument types of `declared` (the function the SDK registered)."""
    hints = get_type_hints(declared)
    hints.pop("return", None)
    return Tool(call, hints)


class _Unfit(Exception):
    """A value that is not, as it is, of its declared type."""


def shaped(value: Any, kind: Any) -> Any:
    """`value` (decoded JSON) as pydantic hands it to the tool when it is of the declared type `kind`
    as it is (an object's keys in their declared order); `_Unfit` for anything pydantic would
    convert or refuse, or a type not declared here."""
    if kind is str or kind is bool:
        if type(value) is not kind:
            raise _Unfit
        return value
    if get_origin(kind) is list:
        (item,) = get_args(kind)
        if type(value) is not list:
            raise _Unfit
        return [shaped(v, item) for v in value]
    if is_typeddict(kind) and type(value) is dict:
        hints = _hints(kind)
        required: frozenset[str] = getattr(kind, "__required_keys__", frozenset(hints))
        if not required <= value.keys() <= hints.keys():
            raise _Unfit
        return {k: shaped(value[k], t) for k, t in hints.items() if k in value}
    raise _Unfit


def fits(value: Any, kind: Any) -> bool:
    """Whether `value` is, as it is, of the declared type `kind` (see `shaped`)."""
    try:
        shaped(value, kind)
    except _Unfit:
        return False
    return True


_HINTS: dict[Any, dict[str, Any]] = {}


def _hints(kind: Any) -> dict[str, Any]:
    if kind not in _HINTS:
        _HINTS[kind] = get_type_hints(kind)
    return _HINTS[kind]


@dataclass(slots=True)
class Direct:
    """The calls of `tools` answered from their line (see the module)."""

    tools: dict[str, Tool]
    text: ResultText
    refusal: Refusal
    _known: list[Mapping[str, Any]] = field(default_factory=list)
    _extra: dict[str, Any] | None = None  # what the SDK adds to a tool's result
    _pending: dict[str | int, Mapping[str, Any]] = field(default_factory=dict)

    def answer(self, line: str) -> str | None:
        """The response line to `line`, or None: the SDK answers it."""
        if '"tools/call"' not in line or _SURROGATE.search(line):
            return None
        try:
            message = json.loads(line)
        except ValueError:
            return None
        call = self._call(message)
        if call is None:
            return None
        ident, name, arguments, meta = call
        if meta not in self._known or self._extra is None:
            if len(self._pending) >= _PENDING_LIMIT:
                self._pending.pop(next(iter(self._pending)))
            self._pending[ident] = meta
            return None
        tool = self.tools.get(name)
        if tool is None or arguments.keys() != tool.arguments.keys():
            return None
        try:
            arguments = {k: shaped(arguments[k], kind) for k, kind in tool.arguments.items()}
        except _Unfit:
            return None
        result = self._run(name, tool, arguments)
        response = {"jsonrpc": "2.0", "id": ident, "result": {**result, **self._extra}}
        return json.dumps(response, ensure_ascii=False, separators=(",", ":"))

    def _call(self, message: Any) -> tuple[str | int, str, dict[str, Any], Mapping[str, Any]] | None:
        """A `tools/call` request's id, tool, arguments and envelope; None for anything else."""
        if not isinstance(message, dict) or message.keys() != {"jsonrpc", "id", "method", "params"}:
            return None
        ident, params = message["id"], message["params"]
        if message["jsonrpc"] != "2.0" or message["method"] != "tools/call":
            return None
        if isinstance(ident, bool) or not isinstance(ident, (str, int)) or not isinstance(params, dict):
            return None
        if params.keys() != {"name", "arguments", "_meta"}:
            return None
        name, arguments, meta = params["name"], params["arguments"], params["_meta"]
        if not isinstance(name, str) or not isinstance(arguments, dict) or not isinstance(meta, dict):
            return None
        return ident, name, arguments, meta

    def _run(self, name: str, tool: Tool, arguments: dict[str, Any]) -> Structured:
        try:
            structured = tool.call(**arguments)
        except Exception as error:  # a refusal or a bug: the tool error the SDK path makes of it
            return {"content": [_text(self.refusal(name, error))], "isError": True}
        return {"content": [_text(self.text(structured))], "structuredContent": structured, "isError": False}

    def learn(self, ident: object, result: Mapping[str, Any] | None) -> None:
        """The SDK answered the call `ident` (with `result`, or None: an error): a result means it
        accepted that call's envelope, and shows what it adds to a tool's result."""
        if not isinstance(ident, (str, int)) or ident not in self._pending:
            return
        meta = self._pending.pop(ident)
        if result is None or "content" not in result:
            return
        if self._extra is None:
            self._extra = {k: v for k, v in result.items() if k not in _RESULT_FIELDS}
        if meta not in self._known and len(self._known) < _KNOWN_LIMIT:
            self._known.append(meta)


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}

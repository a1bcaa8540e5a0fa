"""A tool call whose arguments do not fit the tool's schema, said as one plain sentence.

The SDK reports such a call with pydantic's text (every error on its own lines, the rejected
input, and a link to the validation library's site). A caller reads ours instead: the tool, the
first argument that is wrong (nested ones by their path, `entities[0].entityType`) and what it
must be, e.g. `recall: the argument "text" is required.`
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# Arguments renamed for what they take, by tool: the old name -> the new one (both are taken).
RENAMED: dict[str, dict[str, str]] = {"get": {"hash": "ref"}}


def renamed(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` of a call of `tool` with an old argument name given as its new one (where the new
    one is not given too: then the old is left, and refused as one the tool does not take)."""
    names = RENAMED.get(tool)
    if not names or not any(old in arguments for old in names):
        return arguments
    out = dict(arguments)
    for old, new in names.items():
        if old in out and new not in out:
            out[new] = out.pop(old)
    return out


# pydantic's error types, as what the argument must be.
_MUST_BE = {
    "string_type": "a string",
    "string_unicode": "a string",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def argument_path(location: Sequence[int | str]) -> str:
    """`("entities", 0, "entityType")` as `entities[0].entityType`."""
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "arguments"


def _problem(error: Mapping[str, Any]) -> str:
    kind = str(error.get("type", ""))
    if kind == "missing":
        return "is required"
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):
        return "is not one this tool takes"
    if kind in _MUST_BE:
        return f"must be {_MUST_BE[kind]}"
    message = str(error.get("msg", "is not valid")).rstrip(".")
    for prefix in ("Input should be ", "Value should be "):
        if message.startswith(prefix):
            return "must be " + message.removeprefix(prefix)
    return "is not valid: " + message[:1].lower() + message[1:]


def argument_error(tool: str, errors: Sequence[Mapping[str, Any]]) -> str:
    """One sentence for a call of `tool` whose arguments failed these (pydantic) errors."""
    if not errors:
        return f"{tool}: the arguments do not fit the tool's schema."
    first = errors[0]
    path = argument_path(tuple(first.get("loc", ())))
    more = len(errors) - 1
    tail = f" (and {more} more {'problem' if more == 1 else 'problems'})" if more else ""
    return f'{tool}: the argument "{path}" {_problem(first)}{tail}.'

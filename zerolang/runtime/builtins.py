"""The builtin ops, one small pure function each (spec §5), and the one table that describes them.

Each takes the input values in order, the node's params (already converted,
node-level fields merged in) and the run's context, and returns a value.
They never mutate their inputs: a value may be shared by several consumers.
"first string" means the first input if it is a string, else "".

`@builtin` registers a function as an op with everything else that knows
about it: the inputs it reads, the params it reads (with their docs), the
names people write for it (`aliases`, renamed by `zero lint --fix`; `similar`,
only suggested) and its docstring as its documentation. The catalog, the
validator, the linter, `zero ops`, the highlighters and the editor grammars
all derive from `OPERATIONS`, so adding an op is this one decorated function
plus its tests.
"""

from __future__ import annotations

import hashlib
import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zerolang.runtime.ports import MemoryPort, StateStore
from zerolang.runtime.signing import DigestSigner, Signer
from zerolang.runtime.state import MISSING, MemoryStateStore
from zerolang.runtime.values import (
    Confidence,
    Hash,
    Value,
    as_number,
    canonical_json,
    is_truthy,
    values_equal,
)
from zerolang.util.errors import RunError, ZeroError

if TYPE_CHECKING:  # datetime is imported by the ops that read the clock (start-up, issue 43)
    from datetime import datetime


@dataclass(slots=True)
class RunContext:
    """What builtins may reach outside their inputs: state, signing and the clock (seconds, as time.time)."""

    state: StateStore = field(default_factory=MemoryStateStore)
    signer: Signer = field(default_factory=DigestSigner)
    clock: Callable[[], float] = time.time
    memory: MemoryPort | None = None  # what the memory ops read and write (zerolang.runtime.ports)


Inputs = list[Value]
Params = dict[str, Value]
Builtin = Callable[[Inputs, Params, RunContext], Value]


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter an op reads from `params`, and what it means."""

    name: str
    doc: str


ANY_PARAMS: dict[str, str] = {"*": "every key of `params` becomes a key of the map"}


@dataclass(frozen=True, slots=True)
class Operation:
    """A builtin op as users see it: name, group, what it reads, its docs and the names meant for it.

    `reads` names the inputs in order: "a, b" for exactly two, "value?" for one
    that may be left out, "values..." for any number of them (none too), "" for
    none. How many inputs a node of the op may have (`arity`) derives from it:
    `zero check` and `zero lint` (Z021) report a node with too many or too few.
    `takes` says what every input is used as, "number" or "string" (others are
    skipped or count as 0 or ""): `zero run` warns when a run input of another
    kind reaches the op. `params` are the keys the op reads from `params` (a `*`
    param means it reads them all). `aliases` are other names for exactly this
    op; `similar` are names for something close that takes other params (only
    suggested).
    """

    name: str
    group: str
    function: Builtin
    reads: str
    params: tuple[Param, ...]
    aliases: tuple[str, ...]
    similar: tuple[str, ...]
    doc: str
    takes: str = ""  # "number" or "string": what every input is used as

    @property
    def summary(self) -> str:
        """The docstring's first line."""
        return self.doc.split("\n", 1)[0]

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(param.name for param in self.params if param.name != "*")

    @property
    def reads_any_param(self) -> bool:
        return any(param.name == "*" for param in self.params)

    @property
    def arity(self) -> tuple[int, int | None]:
        """The fewest and the most inputs the op reads (None: any number), from `reads`."""
        return arity_of(self.reads)

    @property
    def arity_text(self) -> str:
        """`2 inputs`, `1 or 2 inputs`, `at least 1 input`, `no inputs`: what `arity` allows, in words."""
        fewest, most = self.arity
        if most is None:
            return "any number of inputs" if fewest == 0 else f"at least {_inputs(fewest)}"
        if most == 0:
            return "no inputs"
        if fewest == most:
            return _inputs(most)
        return f"{fewest} to {_inputs(most)}" if most - fewest > 1 else f"{fewest} or {_inputs(most)}"

    @property
    def signature(self) -> str:
        """`StartsWith(text) {prefix}`: its inputs in parentheses, then the params it reads in braces."""
        params = ", ".join(param.name if param.name != "*" else "any key..." for param in self.params)
        return f"{self.name}({self.reads})" + (f" {{{params}}}" if params else "")


def arity_of(reads: str) -> tuple[int, int | None]:
    """(fewest, most) inputs for `reads`: "a, b" (2, 2); "map, value?" (1, 2); "seed, after..." (1, None)."""
    names = [part.strip() for part in reads.split(",") if part.strip()]
    required = sum(1 for name in names if not name.endswith(("?", "...")))
    variadic = any(name.endswith("...") for name in names)
    return required, None if variadic else len(names)


def _inputs(count: int) -> str:
    return f"{count} input" if count == 1 else f"{count} inputs"


OPERATIONS: dict[str, Operation] = {}
"""Every builtin op by name, in the order the docs list them."""


def builtin(
    name: str,
    group: str,
    *,
    reads: str,
    params: dict[str, str] | None = None,
    aliases: tuple[str, ...] = (),
    similar: tuple[str, ...] = (),
    takes: str = "",
) -> Callable[[Builtin], Builtin]:
    """Register the decorated function as the op `name`; its docstring is the op's documentation."""

    def register(function: Builtin) -> Builtin:
        if name in OPERATIONS:
            raise ValueError(f"builtin {name} registered twice")
        if not function.__doc__:
            raise TypeError(f"builtin {name} needs a docstring: it is the op's documentation")
        OPERATIONS[name] = Operation(
            name=name,
            group=group,
            function=function,
            reads=reads,
            params=tuple(Param(key, doc) for key, doc in (params or {}).items()),
            aliases=aliases,
            similar=similar,
            doc=inspect.cleandoc(function.__doc__),
            takes=takes,
        )
        return function

    return register


def _first(inputs: Inputs) -> Value:
    return inputs[0] if inputs else None


def _second(inputs: Inputs) -> Value:
    return inputs[1] if len(inputs) > 1 else None


def _first_str(inputs: Inputs) -> str:
    value = inputs[0] if inputs else None
    return value if type(value) is str else ""


def _str_param(params: Params, name: str, default: str = "") -> str:
    value = params.get(name, default)
    return value if type(value) is str else default


def _number(value: Value, default: float) -> float:
    number = as_number(value)
    return default if number is None else number


# -- strings ------------------------------------------------------------------------------


@builtin("Identity", "strings", reads="value")
def identity(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first input, or null."""
    return inputs[0] if inputs else None


@builtin(
    "StartsWith",
    "strings",
    reads="text",
    params={"prefix": 'the prefix to look for (default "", which always matches)'},
    takes="string",
)
def starts_with(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first string starts with `params.prefix` (a missing prefix is "", which always matches)."""
    return _first_str(inputs).startswith(_str_param(params, "prefix"))


@builtin(
    "EndsWith",
    "strings",
    reads="text",
    params={"suffix": 'the suffix to look for (default "")'},
    takes="string",
)
def ends_with(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first string ends with `params.suffix`."""
    return _first_str(inputs).endswith(_str_param(params, "suffix"))


@builtin(
    "Contains",
    "strings",
    reads="text",
    params={"pattern": 'the text to look for, literally (default "")'},
    takes="string",
)
def contains(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first string contains `params.pattern`."""
    return _str_param(params, "pattern") in _first_str(inputs)


@builtin("ExtractFirstWord", "strings", reads="text", takes="string")
def extract_first_word(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first whitespace-separated word of the first string, or ""."""
    words = _first_str(inputs).split(maxsplit=1)
    return words[0] if words else ""


@builtin("ExtractParams", "strings", reads="text", takes="string")
def extract_params(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The words of the first string after the first one."""
    return _first_str(inputs).split()[1:]


@builtin(
    "Concat",
    "strings",
    reads="texts...",
    params={"separator": 'put between the strings (default "")'},
    similar=("StringFormat",),
    takes="string",
)
def concat(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The string inputs joined by `params.separator` (default ""); other inputs are skipped."""
    return _str_param(params, "separator").join([value for value in inputs if type(value) is str])


@builtin("Split", "strings", reads="text", params={"separator": 'where to cut (default " ")'}, takes="string")
def split(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string split on `params.separator` (default " "); "" splits like Rust's `split("")`."""
    text = _first_str(inputs)
    separator = _str_param(params, "separator", " ")
    if separator == "":
        return ["", *text, ""]  # Rust yields an empty piece before and after every char
    return text.split(separator)


@builtin("Trim", "strings", reads="text", takes="string")
def trim(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string without leading and trailing whitespace."""
    return _first_str(inputs).strip()


@builtin("ToLower", "strings", reads="text", aliases=("Lower",), takes="string")
def to_lower(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string in lower case."""
    return _first_str(inputs).lower()


@builtin("ToUpper", "strings", reads="text", aliases=("Upper",), takes="string")
def to_upper(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string in upper case."""
    return _first_str(inputs).upper()


@builtin("Length", "strings", reads="value", aliases=("Len",))
def length(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Length of a String, Array, Map or Bytes, else 0.

    A String counts Unicode characters; the Rust runtime counted UTF-8 bytes
    ("é" is 1 here, 2 there), which leaked the encoding into graphs.
    """
    value = inputs[0] if inputs else None
    if type(value) is str or type(value) is list or type(value) is dict or type(value) is bytes:
        return len(value)
    return 0


# -- maps and arrays ----------------------------------------------------------------------


@builtin(
    "GetField",
    "maps and arrays",
    reads="map",
    params={"field": "the key to read"},
    aliases=("Get",),
    similar=("JsonGet",),
)
def get_field(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first input's `params.field`, or null (also when the input is not a map)."""
    value = inputs[0] if inputs else None
    name = params.get("field")
    if type(value) is dict and type(name) is str:
        return value.get(name)
    return None


@builtin(
    "SetField", "maps and arrays", reads="map, value?", params={"field": "the key to set"}, aliases=("Set",)
)
def set_field(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A copy of the first input (a new map if it is not one) with `params.field` set to the second input."""
    value = inputs[0] if inputs else None
    result = dict(value) if type(value) is dict else {}
    name = params.get("field")
    if len(inputs) > 1 and type(name) is str:
        result[name] = inputs[1]
    return result


@builtin("CreateMap", "maps and arrays", reads="", params=ANY_PARAMS)
def create_map(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A map of `params` (the inputs are ignored)."""
    return dict(params)


@builtin("MergeMap", "maps and arrays", reads="maps...", aliases=("Merge", "Aggregate"))
def merge_map(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The map inputs merged left to right (later keys win); non-maps are skipped."""
    result: dict[str, Value] = {}
    for value in inputs:
        if type(value) is dict:
            result.update(value)
    return result


@builtin("ArrayPush", "maps and arrays", reads="array, value", aliases=("Push",))
def array_push(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A copy of the first input (a new array if it is not one) with the second input appended."""
    value = inputs[0] if inputs else None
    result = list(value) if type(value) is list else []
    if len(inputs) > 1:
        result.append(inputs[1])
    return result


@builtin("ArrayGet", "maps and arrays", reads="array", params={"index": "the position, from 0 (default 0)"})
def array_get(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Element `params.index` (default 0) of the first input; null when out of range or not an Int."""
    value = inputs[0] if inputs else None
    index = params.get("index", 0)
    if type(value) is list and type(index) is int and 0 <= index < len(value):
        return value[index]
    return None


# -- arithmetic and comparison ------------------------------------------------------------


@builtin("Add", "arithmetic", reads="numbers...", aliases=("Sum",), takes="number")
def add(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The Float sum of the numeric inputs (others skipped); 0.0 for none."""
    total = 0.0
    for value in inputs:
        if type(value) is int or type(value) is float or type(value) is Confidence:
            total += value
    return total


@builtin("Multiply", "arithmetic", reads="numbers...", aliases=("Mul",), takes="number")
def multiply(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The Float product of the numeric inputs (others skipped); 1.0 for none."""
    product = 1.0
    for value in inputs:
        if type(value) is int or type(value) is float or type(value) is Confidence:
            product *= value
    return product


@builtin("Subtract", "arithmetic", reads="a, b", aliases=("Sub",), takes="number")
def subtract(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First minus second as Float; a missing or non-numeric operand is 0."""
    return _number(_first(inputs), 0.0) - _number(_second(inputs), 0.0)


@builtin("Divide", "arithmetic", reads="a, b", aliases=("Div",), takes="number")
def divide(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First over second as Float (missing first 0, missing divisor 1); dividing by zero is an error."""
    divisor = _number(_second(inputs), 1.0)
    if divisor == 0.0:
        raise RunError("division by zero")
    return _number(_first(inputs), 0.0) / divisor


@builtin("Equals", "comparison", reads="a, b", aliases=("Eq", "Equal"))
def equals(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Variant-strict structural equality of the first two inputs (missing = null)."""
    return values_equal(_first(inputs), _second(inputs))


@builtin("NotEquals", "comparison", reads="a, b", aliases=("Neq", "NotEqual"))
def not_equals(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The negation of `Equals`."""
    return not values_equal(_first(inputs), _second(inputs))


@builtin("GreaterThan", "comparison", reads="a, b", aliases=("Gt",), takes="number")
def greater_than(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First > second as numbers (non-numbers count as 0)."""
    return _number(_first(inputs), 0.0) > _number(_second(inputs), 0.0)


@builtin("LessThan", "comparison", reads="a, b", aliases=("Lt",), takes="number")
def less_than(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First < second as numbers (non-numbers count as 0)."""
    return _number(_first(inputs), 0.0) < _number(_second(inputs), 0.0)


# -- logic --------------------------------------------------------------------------------


@builtin("And", "logic", reads="values...")
def and_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether every input is truthy (true for no inputs)."""
    return all(is_truthy(value) for value in inputs)


@builtin("Or", "logic", reads="values...")
def or_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether any input is truthy (false for no inputs)."""
    return any(is_truthy(value) for value in inputs)


@builtin("Not", "logic", reads="value")
def not_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first input is falsy (a missing input is null, so true)."""
    return not is_truthy(_first(inputs))


@builtin("If", "logic", reads="condition, then, else")
def if_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The second input if the first is truthy, else the third (missing = null)."""
    if is_truthy(_first(inputs)):
        return _second(inputs)
    return inputs[2] if len(inputs) > 2 else None


# -- hashing, signing, time ---------------------------------------------------------------


@builtin("Hash", "hashing, signing, time", reads="values...", aliases=("Sha256",))
def hash_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """SHA-256 over the inputs in order: strings as UTF-8, Bytes raw, anything else as canonical JSON."""
    digest = hashlib.sha256()
    for value in inputs:
        if type(value) is str:
            digest.update(value.encode("utf-8", "surrogatepass"))
        elif type(value) is bytes:
            digest.update(value)
        else:
            digest.update(canonical_json(value))
    return Hash(digest.digest())


@builtin("Sign", "hashing, signing, time", reads="value")
def sign(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A 64-byte signature of the first input's canonical JSON: the digest form, or Ed25519 with a key."""
    return ctx.signer.sign(canonical_json(_first(inputs)))


@builtin("Verify", "hashing, signing, time", reads="value, signature, public_key?")
def verify(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the second input is a valid signature of the first; never true for an unchecked one."""
    public_key = _public_key(inputs[2]) if len(inputs) > 2 else None  # a bad key fails whatever the signature
    signature = _second(inputs)
    if type(signature) is not bytes:
        return False
    return ctx.signer.verify(canonical_json(_first(inputs)), signature, public_key)


def _public_key(value: Value) -> bytes:
    """A Verify public key: 32 raw bytes, or 64 hex characters."""
    if isinstance(value, bytes) and len(value) == 32:
        return bytes(value)
    if type(value) is str and len(value) == 64:
        try:
            return bytes.fromhex(value)
        except ValueError:
            pass
    raise RunError("Verify's third input must be an Ed25519 public key: 32 bytes or 64 hex characters")


@builtin("Timestamp", "hashing, signing, time", reads="", aliases=("Now",))
def timestamp(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Milliseconds since the Unix epoch, from the run's clock."""
    return int(ctx.clock() * 1000)


@builtin(
    "ClassifyIntent",
    "strings",
    reads="text",
    params={"classes": "accepted and ignored, as in the old runtime (the four classes are fixed)"},
    takes="string",
)
def classify_intent(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """greeting / question / request / statement, by the old runtime's rules on the first string, exactly.

    `greeting` if it starts with "hi", "hello" or "hey"; else `question` if it
    contains "?"; else `request` if it starts with "please" or contains "can you"
    or "could you"; else `statement`. Case-sensitive and on the text as given,
    as in the Rust runtime: "Hello there" and "Can you help" are statements
    there and here. Put a `ToLower` (and a `Trim`) before it to ignore case.
    """
    text = _first_str(inputs)
    if text.startswith(("hi", "hello", "hey")):
        return "greeting"
    if "?" in text:
        return "question"
    if text.startswith("please") or "can you" in text or "could you" in text:
        return "request"
    return "statement"


# -- state --------------------------------------------------------------------------------


def _state_key(inputs: Inputs) -> str:
    value = _first(inputs)
    return value if type(value) is str else canonical_json(value).decode("utf-8", "surrogatepass")


@builtin("LoadState", "state", reads="key")
def load_state(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The value stored under the first input, or the old runtime's session map when none is."""
    key = _state_key(inputs)
    value = ctx.state.load(key)
    if value is MISSING:
        return {"session_id": key, "trust_score": Confidence(0.5), "message_count": 0}
    return value


@builtin("SaveState", "state", reads="key, value")
def save_state(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Store the second input (null if missing) under the first; returns the stored value."""
    value = _second(inputs)
    ctx.state.save(_state_key(inputs), value)
    return value


# -- memory (seed 000 V3.1) ---------------------------------------------------------------
# The run's memory is a `MemoryPort` (zerolang.runtime.ports), given by whoever runs the graph
# (`zero run FILE --db PATH`); the runtime never imports the memory. Time is the run's clock.


def _memory(ctx: RunContext, op: str) -> MemoryPort:
    if ctx.memory is None:
        raise RunError(
            f"{op} needs a memory store: run the graph with `zero run FILE --db PATH [--space NAME]`"
        )
    return ctx.memory


def _required_text(inputs: Inputs, index: int, what: str, op: str) -> str:
    value = inputs[index] if index < len(inputs) else None
    if not isinstance(value, str) or not value.strip():
        raise RunError(f"{op}: the {what} (input {index + 1}) must be a non-empty string")
    return value


def _param_number(given: Value, name: str, op: str) -> float:
    value = as_number(given)
    if value is None:
        raise RunError(f"{op}: param `{name}` must be a number")
    return value


def _moment(ctx: RunContext) -> datetime:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ctx.clock(), UTC)


@builtin(
    "MemoryStore",
    "memory",
    reads="subject, predicate, object",
    params={
        "confidence": "how sure the graph is, 0..1 (default 1.0)",
        "source": 'where the fact came from (default "graph")',
        "scope": 'what it is about (default "graph")',
        "event_time": "when it was observed (default: the run's clock)",
    },
)
def memory_store(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Store the fact `subject predicate object` in the run's memory; returns {fact_hash, episode_hash, new}.

    Storing the same fact in the same context again changes nothing (`new` is false).
    """
    memory = _memory(ctx, "MemoryStore")
    subject = _required_text(inputs, 0, "subject", "MemoryStore")
    predicate = _required_text(inputs, 1, "predicate", "MemoryStore")
    obj = _required_text(inputs, 2, "object", "MemoryStore")
    confidence = _param_number(params.get("confidence", 1.0), "confidence", "MemoryStore")
    event_time = params.get("event_time")
    try:
        return memory.store(
            subject,
            predicate,
            obj,
            confidence=float(confidence),
            source=str(params.get("source", "graph")),
            scope=str(params.get("scope", "graph")),
            event_time=None if event_time is None else str(event_time),
            now=_moment(ctx),
        )
    except (ZeroError, ValueError) as error:
        raise RunError(f"MemoryStore: {error}") from None


@builtin(
    "MemoryRecall",
    "memory",
    reads="seed, after...",
    params={"depth": "hops from the seed, 1..10 (default 2)", "limit": "at most this many (default 10)"},
)
def memory_recall(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Recall what is around a concept: a list of {concept, depth, score, path}, best first.

    Inputs after the seed are not read: they order the run (recall after a `MemoryStore`).
    """
    memory = _memory(ctx, "MemoryRecall")
    seed = _required_text(inputs, 0, "seed concept", "MemoryRecall")
    depth = int(_param_number(params.get("depth", 2), "depth", "MemoryRecall"))
    limit = int(_param_number(params.get("limit", 10), "limit", "MemoryRecall"))
    if not 1 <= depth <= 10 or limit < 1:
        raise RunError("MemoryRecall: depth must be 1..10 and limit at least 1")
    try:
        return list(memory.recall(seed, depth=depth, limit=limit, now=_moment(ctx)))
    except ZeroError as error:
        raise RunError(f"MemoryRecall: {str(error).splitlines()[0]}") from None


@builtin("MemoryQuery", "memory", reads="query, after...")
def memory_query(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Run a `zero query` query (recall or match) on the run's memory; its result rows as a list.

    Inputs after the query are not read: they order the run (query after a `MemoryStore`).
    """
    memory = _memory(ctx, "MemoryQuery")
    text = _required_text(inputs, 0, "query", "MemoryQuery")
    try:
        return memory.query(text, now=_moment(ctx))
    except ZeroError as error:
        raise RunError(f"MemoryQuery: {str(error).splitlines()[0]}") from None


BUILTINS: dict[str, Builtin] = {name: spec.function for name, spec in OPERATIONS.items()}
"""What the interpreter calls: each op's function by name."""

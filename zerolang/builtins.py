"""The 37 builtin ops, one small pure function each (spec §5).

Each takes the input values in order, the node's params (already converted,
node-level fields merged in) and the run's context, and returns a value.
They never mutate their inputs: a value may be shared by several consumers.
"first string" means the first input if it is a string, else "".
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from zerolang.errors import RunError
from zerolang.signing import DigestSigner, Signer
from zerolang.state import MISSING, MemoryStateStore, StateStore
from zerolang.values import Confidence, Hash, Value, as_number, canonical_json, is_truthy, values_equal


@dataclass(slots=True)
class RunContext:
    """What builtins may reach outside their inputs: state, signing and the clock (seconds, as time.time)."""

    state: StateStore = field(default_factory=MemoryStateStore)
    signer: Signer = field(default_factory=DigestSigner)
    clock: Callable[[], float] = time.time


Inputs = list[Value]
Params = dict[str, Value]
Builtin = Callable[[Inputs, Params, RunContext], Value]


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


def identity(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first input, or null."""
    return inputs[0] if inputs else None


def starts_with(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first string starts with `params.prefix` (a missing prefix is "", which always matches)."""
    return _first_str(inputs).startswith(_str_param(params, "prefix"))


def ends_with(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first string ends with `params.suffix`."""
    return _first_str(inputs).endswith(_str_param(params, "suffix"))


def contains(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first string contains `params.pattern`."""
    return _str_param(params, "pattern") in _first_str(inputs)


def extract_first_word(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first whitespace-separated word of the first string, or ""."""
    words = _first_str(inputs).split(maxsplit=1)
    return words[0] if words else ""


def extract_params(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The words of the first string after the first one."""
    return _first_str(inputs).split()[1:]


def concat(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The string inputs joined by `params.separator` (default ""); other inputs are skipped."""
    return _str_param(params, "separator").join([value for value in inputs if type(value) is str])


def split(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string split on `params.separator` (default " "); "" splits like Rust's `split("")`."""
    text = _first_str(inputs)
    separator = _str_param(params, "separator", " ")
    if separator == "":
        return ["", *text, ""]  # Rust yields an empty piece before and after every char
    return text.split(separator)


def trim(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string without leading and trailing whitespace."""
    return _first_str(inputs).strip()


def to_lower(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string in lower case."""
    return _first_str(inputs).lower()


def to_upper(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first string in upper case."""
    return _first_str(inputs).upper()


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


def get_field(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The first input's `params.field`, or null (also when the input is not a map)."""
    value = inputs[0] if inputs else None
    name = params.get("field")
    if type(value) is dict and type(name) is str:
        return value.get(name)
    return None


def set_field(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A copy of the first input (a new map if it is not one) with `params.field` set to the second input."""
    value = inputs[0] if inputs else None
    result = dict(value) if type(value) is dict else {}
    name = params.get("field")
    if len(inputs) > 1 and type(name) is str:
        result[name] = inputs[1]
    return result


def create_map(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A map of `params` (the inputs are ignored)."""
    return dict(params)


def merge_map(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The map inputs merged left to right (later keys win); non-maps are skipped."""
    result: dict[str, Value] = {}
    for value in inputs:
        if type(value) is dict:
            result.update(value)
    return result


def array_push(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A copy of the first input (a new array if it is not one) with the second input appended."""
    value = inputs[0] if inputs else None
    result = list(value) if type(value) is list else []
    if len(inputs) > 1:
        result.append(inputs[1])
    return result


def array_get(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Element `params.index` (default 0) of the first input; null when out of range or not an Int."""
    value = inputs[0] if inputs else None
    index = params.get("index", 0)
    if type(value) is list and type(index) is int and 0 <= index < len(value):
        return value[index]
    return None


# -- arithmetic and comparison ------------------------------------------------------------


def add(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The Float sum of the numeric inputs (others skipped); 0.0 for none."""
    total = 0.0
    for value in inputs:
        if type(value) is int or type(value) is float or type(value) is Confidence:
            total += value
    return total


def multiply(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The Float product of the numeric inputs (others skipped); 1.0 for none."""
    product = 1.0
    for value in inputs:
        if type(value) is int or type(value) is float or type(value) is Confidence:
            product *= value
    return product


def subtract(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First minus second as Float; a missing or non-numeric operand is 0."""
    return _number(_first(inputs), 0.0) - _number(_second(inputs), 0.0)


def divide(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First over second as Float (missing first 0, missing divisor 1); dividing by zero is an error."""
    divisor = _number(_second(inputs), 1.0)
    if divisor == 0.0:
        raise RunError("division by zero")
    return _number(_first(inputs), 0.0) / divisor


def equals(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Variant-strict structural equality of the first two inputs (missing = null)."""
    return values_equal(_first(inputs), _second(inputs))


def not_equals(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The negation of `Equals`."""
    return not values_equal(_first(inputs), _second(inputs))


def greater_than(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First > second as numbers (non-numbers count as 0)."""
    return _number(_first(inputs), 0.0) > _number(_second(inputs), 0.0)


def less_than(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """First < second as numbers (non-numbers count as 0)."""
    return _number(_first(inputs), 0.0) < _number(_second(inputs), 0.0)


# -- logic --------------------------------------------------------------------------------


def and_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether every input is truthy (true for no inputs)."""
    return all(is_truthy(value) for value in inputs)


def or_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether any input is truthy (false for no inputs)."""
    return any(is_truthy(value) for value in inputs)


def not_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Whether the first input is falsy (a missing input is null, so true)."""
    return not is_truthy(_first(inputs))


def if_(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The second input if the first is truthy, else the third (missing = null)."""
    if is_truthy(_first(inputs)):
        return _second(inputs)
    return inputs[2] if len(inputs) > 2 else None


# -- hashing, signing, time ---------------------------------------------------------------


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


def sign(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """A 64-byte signature of the first input's canonical JSON: the digest form, or Ed25519 with a key."""
    return ctx.signer.sign(canonical_json(_first(inputs)))


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


def timestamp(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Milliseconds since the Unix epoch, from the run's clock."""
    return int(ctx.clock() * 1000)


def classify_intent(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """greeting / question / request / statement, by the old runtime's keyword rules on the first string."""
    text = _first_str(inputs).strip().lower()
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


def load_state(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """The value stored under the first input, or the old runtime's session map when none is."""
    key = _state_key(inputs)
    value = ctx.state.load(key)
    if value is MISSING:
        return {"session_id": key, "trust_score": Confidence(0.5), "message_count": 0}
    return value


def save_state(inputs: Inputs, params: Params, ctx: RunContext) -> Value:
    """Store the second input (null if missing) under the first; returns the stored value."""
    value = _second(inputs)
    ctx.state.save(_state_key(inputs), value)
    return value


BUILTINS: dict[str, Builtin] = {
    "Identity": identity,
    "StartsWith": starts_with,
    "EndsWith": ends_with,
    "Contains": contains,
    "ExtractFirstWord": extract_first_word,
    "ExtractParams": extract_params,
    "Concat": concat,
    "Split": split,
    "Trim": trim,
    "ToLower": to_lower,
    "ToUpper": to_upper,
    "Length": length,
    "GetField": get_field,
    "SetField": set_field,
    "CreateMap": create_map,
    "MergeMap": merge_map,
    "ArrayPush": array_push,
    "ArrayGet": array_get,
    "Add": add,
    "Multiply": multiply,
    "Subtract": subtract,
    "Divide": divide,
    "Equals": equals,
    "NotEquals": not_equals,
    "GreaterThan": greater_than,
    "LessThan": less_than,
    "And": and_,
    "Or": or_,
    "Not": not_,
    "If": if_,
    "Hash": hash_,
    "Sign": sign,
    "Verify": verify,
    "Timestamp": timestamp,
    "ClassifyIntent": classify_intent,
    "LoadState": load_state,
    "SaveState": save_state,
}

"""Every diagnostic code zerolang reports, in one table.

A code names one kind of problem and never changes meaning. Its letter says
which tool reports it:

    Z  `.0` graphs: the validator (`zero check`, `zero run`) and the linter (`zero lint`)
    C  `.0c` memory documents: `zero lint` (and `zero check` for what stops parsing)
    P  portability to the old runtime: the warnings of `zero fmt --compat`

The lint rules (zerolang.tools.lint.rules) and the `.0c` checks (zerolang.tools.lint.compact)
take their code and name from here; a Z rule's docstring is its explanation,
the other codes carry theirs in `summary`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    name: str
    reporter: str
    summary: str = ""

    def __str__(self) -> str:
        return self.code


CODES: dict[str, Code] = {}

VALIDATOR = "validator"
LINT = "lint"
COMPACT = ".0c lint"
COMPAT = "fmt --compat"


def _register(code: str, name: str, reporter: str, summary: str = "") -> Code:
    if code in CODES:
        raise ValueError(f"diagnostic code {code} registered twice")
    entry = Code(code, name, reporter, summary)
    CODES[code] = entry
    return entry


# -- .0 graphs: what stops a graph from running (the validator; lint reports them too) -----
AGGREGATE = _register("Z001", "aggregate-node", VALIDATOR)
UNKNOWN_TYPE = _register("Z002", "unknown-node-type", VALIDATOR)
UNKNOWN_OP = _register("Z003", "unknown-op", VALIDATOR)
UNKNOWN_INPUT = _register("Z004", "unknown-input", VALIDATOR)
CYCLE = _register("Z005", "cycle", VALIDATOR)
DUPLICATE_ID = _register("Z006", "duplicate-id", VALIDATOR)
UNKNOWN_OUTPUT = _register("Z007", "unknown-output", VALIDATOR)
# -- .0 graphs: what runs but does not do what it says (the linter) ------------------------
MERGE_MAP_NON_MAP = _register("Z008", "merge-map-non-map", LINT)
MERGE_MAP_COLLISION = _register("Z009", "merge-map-key-collision", LINT)
NODE_LEVEL_PARAM = _register("Z010", "node-level-param", LINT)
UNUSED_NODE = _register("Z011", "unused-node", LINT)
MISSING_FIELD = _register("Z012", "missing-field", VALIDATOR)
UNLISTED_INPUT = _register("Z013", "unlisted-input", LINT)
WRONG_KIND = _register("Z014", "wrong-kind", VALIDATOR)
MISSPELLED_KEY = _register("Z015", "misspelled-key", LINT)
CONDITION_READS_NO_NODE = _register("Z016", "condition-reads-no-node", LINT)
UNREACHABLE_CONDITION = _register("Z017", "unreachable-condition", LINT)
PERMISSION_WITHOUT_SENDER = _register("Z018", "permission-without-sender", LINT)
UNREAD_PARAM = _register("Z019", "unread-param", LINT)
DUPLICATE_KEY = _register("Z020", "duplicate-key", VALIDATOR)
# Runs (a missing input is null, an extra one unread), but `zero check` reports it as an error too.
WRONG_INPUT_COUNT = _register("Z021", "wrong-input-count", LINT)

# -- .0c memory documents -------------------------------------------------------------------
DANGLING_REFERENCE = _register(
    "C001",
    "dangling-reference",
    COMPACT,
    "a relation names a concept number the document does not define",
)
DUPLICATE_ENTITY = _register(
    "C002",
    "duplicate-entity",
    COMPACT,
    "a concept or context defined twice: its number would be ambiguous",
)
BAD_NUMBER = _register("C003", "bad-number", COMPACT, "a confidence that is not a number in [0, 1]")

# -- `zero fmt --compat`: what the old runtime's parser would still get wrong ---------------
COMPAT_CORRUPTED_STRING = _register(
    "P001",
    "corrupted-string",
    COMPAT,
    "a string the old runtime's parser would corrupt (a `word:` inside it, or a `#`)",
)
COMPAT_STRUCT_NAME = _register(
    "P002",
    "struct-name",
    COMPAT,
    "a named struct (`Proof { ... }`), which the old parser reads as a plain map",
)


def codes_for(reporter: str) -> tuple[Code, ...]:
    """The codes one tool reports, in code order."""
    return tuple(code for code in CODES.values() if code.reporter == reporter)


def code_range(prefix: str) -> str:
    """`Z001 to Z019`: the span of the codes that start with `prefix`."""
    matching = sorted(code for code in CODES if code.startswith(prefix))
    return f"{matching[0]} to {matching[-1]}"

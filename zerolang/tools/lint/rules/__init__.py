"""The lint rules, one small module per rule or per closely related group.

Importing this package registers every rule; `RULES` lists them by code.
"""

from __future__ import annotations

from zerolang.tools.lint.model import REGISTRY, Rule
from zerolang.tools.lint.rules import (  # noqa: F401  (imported to register their rules)
    aggregate,
    duplicate_key,
    input_count,
    merge_map,
    misspelled_key,
    node_level_params,
    permission,
    route,
    unknown_op,
    unlisted_input,
    unread_param,
    unused_node,
    validation,
)

RULES: dict[str, Rule] = dict(sorted(REGISTRY.items()))

"""A leaner tree builder for lark's LALR parser: one plain callback per grammar rule.

lark reduces each rule through layers of wrappers (a child filter, then the
transformer's method), and looks its callbacks up by `Rule` objects whose
equality is Python code. `install_callbacks` reads the same rules from the
built parse table and gives each one a single function made for its shape,
keyed by the very `Rule` object the table holds:

- anonymous tokens (`","`, `":"`) are dropped, as lark drops them;
- `_rule`s are inlined: they return a list their parent splices in;
- a `?rule` with one child is that child (`operator.itemgetter`, in C), unless
  the alternative has an alias (`?term: VAR -> var`), as in lark;
- every other rule calls the builder's method of that name with its children.

The grammar stays the single source of truth: nothing here names a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

Plan = list[tuple[int, bool]]  # (position in the rule, inlined `_rule` whose list is spliced)


def _splicer(plan: Plan, size: int) -> Callable[[list[Any]], list[Any]]:
    """The kept children of a reduction of `size` symbols as one list, inlined rules' lists spliced in."""
    if not plan:
        return lambda values: []
    if all(not inline for _, inline in plan):
        if len(plan) == size:
            return lambda values: values  # all kept: the parser's slice is already that list
        picks = [index for index, _ in plan]
        if len(picks) == 1:
            only = picks[0]
            return lambda values: [values[only]]
        pick = itemgetter(*picks)
        return lambda values: list(pick(values))
    first, first_inline = plan[0]
    rest = plan[1:]

    def splice(values: list[Any]) -> list[Any]:
        # A left-recursive `_rule`'s list is reused, so a long list grows in place.
        out: list[Any] = values[first] if first_inline else [values[first]]
        for index, inline in rest:
            if inline:
                out.extend(values[index])
            else:
                out.append(values[index])
        return out

    return splice


def rule_callback(rule: Any, builder: Any) -> Callable[[list[Any]], Any]:
    """The callback for one lark `Rule` (see the module docstring)."""
    keep_all = rule.options.keep_all_tokens
    plan: Plan = [
        (index, not symbol.is_term and symbol.name.startswith("_"))
        for index, symbol in enumerate(rule.expansion)
        if keep_all or not (symbol.is_term and symbol.filter_out)
    ]
    name = rule.alias or rule.origin.name
    expand1 = rule.options.expand1 and not rule.alias  # lark's ExpandSingleChild skips aliased ones
    children = _splicer(plan, len(rule.expansion))
    if name.startswith("_"):
        return children
    if expand1 and len(plan) == 1 and not plan[0][1]:
        return itemgetter(plan[0][0])
    method = getattr(builder, name, None)
    if method is None:
        raise AttributeError(f"the tree builder has no method for grammar rule `{name}`")
    if expand1:

        def single_or_built(values: list[Any]) -> Any:
            items = children(values)
            return items[0] if len(items) == 1 else method(items)

        return single_or_built
    if len(plan) == len(rule.expansion) and all(not inline for _, inline in plan):
        return method  # type: ignore[no-any-return]
    return lambda values: method(children(values))


def _identity_rule(rule: Any) -> Any:
    """A copy of lark's `Rule` compared and hashed by identity, in C.

    lark's parser loop compares the rule of every reduction with an int
    (`assert arg != end_state`) and looks its callback up by it; `Rule`'s
    `__eq__` and `__hash__` are Python functions, a fifth of the loop's time.
    """
    global _IdentityRule
    if _IdentityRule is None:

        class IdentityRule(type(rule)):  # type: ignore[misc]
            __slots__ = ()
            __eq__ = object.__eq__
            __ne__ = object.__ne__
            __hash__ = object.__hash__

        _IdentityRule = IdentityRule
    copy = object.__new__(_IdentityRule)
    for name in ("origin", "expansion", "alias", "options", "order", "_hash"):
        setattr(copy, name, getattr(rule, name))
    return copy


_IdentityRule: Any = None


def install_callbacks(parser: Any, builder: Any) -> None:
    """Make `parser` (a `lark.Lark`, LALR) build with `builder`'s methods through lean callbacks."""
    lalr = parser.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> the table-driven loop
    callbacks: dict[Any, Any] = {}
    canonical: dict[Any, Any] = {}
    for row in lalr.parse_table.states.values():
        for token, (action, argument) in row.items():
            if isinstance(argument, int):
                continue
            # A table loaded from the cache holds equal but distinct copies of a rule: one object each.
            rule = canonical.get(argument)
            if rule is None:
                rule = canonical[argument] = _identity_rule(argument)
            row[token] = (action, rule)
            if rule not in callbacks:
                callbacks[rule] = rule_callback(rule, builder)
    lalr.callbacks = callbacks

"""One table of diagnostic codes: every code has one meaning, and every tool takes its codes from it."""

from __future__ import annotations

from zerolang.tools.formatter import to_compat
from zerolang.tools.lint import RULES
from zerolang.tools.lint.compact import RULES as COMPACT_RULES
from zerolang.tools.lint.selection import all_codes
from zerolang.util import codes


def test_every_lint_rule_is_a_registered_code_with_its_name() -> None:
    for code, rule in RULES.items():
        assert codes.CODES[code].name == rule.name
    graph_codes = {
        code for code, entry in codes.CODES.items() if entry.reporter in (codes.VALIDATOR, codes.LINT)
    }
    assert graph_codes == set(RULES), "every Z code is a lint rule, and every lint rule a Z code"


def test_each_family_has_its_own_letter() -> None:
    for code, entry in codes.CODES.items():
        letter = {codes.VALIDATOR: "Z", codes.LINT: "Z", codes.COMPACT: "C", codes.COMPAT: "P"}[
            entry.reporter
        ]
        assert code.startswith(letter) and len(code) == 4, code
        assert entry.name == entry.name.lower() and " " not in entry.name
        if letter != "Z":
            assert entry.summary, f"{code} needs a summary: it has no rule docstring"


def test_compat_warnings_and_compact_checks_do_not_share_codes() -> None:
    result = to_compat('Graph { name: "x", nodes: [], outputs: [], proofs: [P { at: "12:00 # no" }] }')
    warned = {warning.code for warning in result.warnings}
    assert warned == {"P001", "P002"}
    assert not warned & set(COMPACT_RULES)
    assert set(COMPACT_RULES) == {"C001", "C002", "C003"}


def test_lint_selectors_cover_the_z_and_c_codes_only() -> None:
    assert set(all_codes()) == {code for code in codes.CODES if code[0] in "ZC"}

"""`zero lint --statistics`: how many findings each rule has, most first, as ruff prints them.

    2	Z011	[*] unused-node
    1	Z003	[*] unknown-op

`[*]` marks a rule whose findings `--fix` can fix (all of them safely); JSON is a list of
{code, name, count, fixable}. A file that does not parse counts under the code `syntax-error`.
"""

from __future__ import annotations

import json
from collections import Counter

from zerolang.tools.lint.runner import FileResult

SYNTAX = "syntax-error"


def rows(results: list[FileResult]) -> list[dict[str, object]]:
    """One row per code found: its code, name, count and whether `--fix` fixes every one."""
    from zerolang.util.codes import CODES

    found = [finding for result in results for finding in result.findings]
    counted = Counter(finding.code or SYNTAX for finding in found)
    fixable = dict.fromkeys(counted, True)
    for finding in found:
        if finding.fix is None or not finding.fix.safe:
            fixable[finding.code or SYNTAX] = False
    order = sorted(counted, key=lambda code: (-counted[code], code))
    return [
        {
            "code": code,
            "name": CODES[code].name if code in CODES else SYNTAX,
            "count": counted[code],
            "fixable": fixable[code],
        }
        for code in order
    ]


def render(results: list[FileResult], *, as_json: bool = False) -> str:
    table = rows(results)
    if as_json:
        return json.dumps(table, indent=2) + "\n"
    width = max((len(str(row["count"])) for row in table), default=1)
    return "".join(
        f"{row['count']:>{width}}\t{row['code']}\t{'[*] ' if row['fixable'] else ''}{row['name']}\n"
        for row in table
    )

"""HTML that escapes by default: a value becomes markup only through `html(...)` or `Html(...)`.

Labels, facts and transcripts are data from anyone, so every value placed in a page is shown as
text: control characters made visible (`zerolang.util.escapes.escaped`), then `&`, `<`, `>` and
both quotes escaped. Only a template string written here in the code, or an `Html` built from one,
is taken as markup.
"""

from __future__ import annotations

import html as _html
from collections.abc import Iterable

from zerolang.util.escapes import escaped


class Html(str):
    """A string that is already markup: placed in a template as it is."""

    __slots__ = ()


MISSING = "-"
"""What a page shows where a value is missing (never Python's `None`)."""


def text(value: object) -> str:
    """Any value as HTML text: printable (controls shown as escapes) and escaped, quotes included;
    None (a missing value) as `MISSING`."""
    if isinstance(value, Html):
        return value
    if value is None:
        return MISSING
    return _html.escape(escaped(str(value), exact=False), quote=True)


def lines(value: str) -> Html:
    """Text whose line breaks are layout (a transcript, a rendered context): each line as `text`."""
    return Html("\n".join(text(line) for line in value.split("\n")))


def html(template: str, *values: object, **named: object) -> Html:
    """`template` (markup written in the code) with each `{}` / `{name}` filled by an escaped value."""
    return Html(template.format(*map(text, values), **{key: text(value) for key, value in named.items()}))


def join(parts: Iterable[Html], separator: str = "") -> Html:
    """Markup pieces one after another (each already escaped)."""
    return Html(separator.join(text(part) for part in parts))

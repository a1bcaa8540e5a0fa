"""HTML that escapes by default: a value becomes markup only through `html(...)` or `Html(...)`.

Labels, facts and transcripts are data from anyone, so every value placed in a page is shown as
text: control characters made visible (`zerolang.util.escapes.escaped`), then `&`, `<`, `>` and
both quotes escaped. Only a template string written here in the code, or an `Html` built from one,
is taken as markup.
"""

from __future__ import annotations

import html as _html
import json
from collections.abc import Iterable

from zerolang.util.escapes import escaped


class Html(str):
    """A string that is already markup: placed in a template as it is."""

    __slots__ = ()


def text(value: object) -> str:
    """Any value as HTML text: printable (controls shown as escapes) and escaped, quotes included."""
    if isinstance(value, Html):
        return value
    return _html.escape(escaped(str(value), exact=False), quote=True)


def html(template: str, *values: object, **named: object) -> Html:
    """`template` (markup written in the code) with each `{}` / `{name}` filled by an escaped value."""
    return Html(template.format(*map(text, values), **{key: text(value) for key, value in named.items()}))


def join(parts: Iterable[Html], separator: str = "") -> Html:
    """Markup pieces one after another (each already escaped)."""
    return Html(separator.join(text(part) for part in parts))


_IN_SCRIPT = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def page_json(document: object) -> str:
    """JSON that may sit inside a page (a `data-` attribute or a script element): no character of it
    can end the element or read as markup (`<`, `>`, `&`, U+2028/9 written as escapes)."""
    dumped = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return "".join(_IN_SCRIPT.get(character, character) for character in dumped)

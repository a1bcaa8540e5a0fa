"""What a page of the explorer may contain: markup we wrote, never markup a value brought in."""

from __future__ import annotations

from html.parser import HTMLParser

ALLOWED_SCRIPTS = {"/static/explore.js"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def assert_inert(page: str) -> None:
    """No script but ours, no element a label could have made (img, iframe, object), no event
    handler attribute, no control character anywhere."""
    parsed = _Tags()
    parsed.feed(page)
    for tag, attrs in parsed.tags:
        names = {name for name, _ in attrs}
        assert not any(name.startswith("on") for name in names), (tag, attrs)
        assert tag not in {"img", "iframe", "object", "embed", "base", "meta"} or (
            tag == "meta"
            and names
            <= {
                "charset",
                "name",
                "content",
            }
        ), (tag, attrs)
        if tag == "script":
            assert dict(attrs).get("src") in ALLOWED_SCRIPTS, attrs
    assert not any(character in page for character in "\x1b\x7f\u202e"), (
        "a control character reached the page"
    )

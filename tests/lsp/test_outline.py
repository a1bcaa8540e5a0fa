"""Completion read from the node around the cursor (`lsp.outline`) offers what a reading of the whole text does."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.budget import scaled
from zerolang.lsp.analysis import analyse
from zerolang.lsp.completion import completions
from zerolang.lsp.context import cursor_at
from zerolang.lsp.server import common_prefix

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.0"))
TEXTS = [path.read_text(encoding="utf-8") for path in EXAMPLES]


def big(count: int) -> str:
    nodes = [
        f'        {{ id: "n{i}", type: Operation, op: Identity, inputs: ["n{i - 1}"] }},'
        for i in range(1, count)
    ]
    head = ["Graph {", '    name: "big",', "    nodes: [", '        { id: "n0", type: Constant, value: 1 },']
    return "\n".join([*head, *nodes, "    ],", f'    outputs: ["n{count - 1}"],', "}"]) + "\n"


def labels(source: str, offset: int, **hint: object) -> list[tuple[str, str | None]]:
    found = completions(source, offset, **hint)  # type: ignore[arg-type]
    return [(item.label, item.text_edit.new_text if item.text_edit else None) for item in found.items]


@settings(max_examples=scaled(200), deadline=None)
@given(st.sampled_from(range(len(TEXTS))), st.data())
def test_the_outline_offers_what_a_whole_reading_does(which: int, data: st.DataObject) -> None:
    source = TEXTS[which]
    analysis = analyse(source, None)
    if analysis.outline is None:
        return
    offset = data.draw(st.integers(0, len(source)))
    hint = {"outline": analysis.outline, "unchanged": len(source)}
    assert labels(source, offset, **hint) == labels(source, offset)


@settings(max_examples=scaled(200), deadline=None)
@given(st.sampled_from(range(len(TEXTS))), st.data())
def test_after_an_edit_the_old_outline_still_offers_what_a_whole_reading_does(
    which: int, data: st.DataObject
) -> None:
    """Typing anywhere (a character, a bracket, a quote) and completing anywhere: the outline of the
    text before the edit, used where the text is unchanged, agrees with reading the new text whole."""
    old = TEXTS[which]
    analysis = analyse(old, None)
    if analysis.outline is None:
        return
    at = data.draw(st.integers(0, len(old)))
    typed = data.draw(st.sampled_from(['"', "{", "}", "[", "]", ",", ":", "x", " op: ", "\n", "#"]))
    new = old[:at] + typed + old[at:]
    offset = data.draw(st.integers(0, len(new)))
    hint = {"outline": analysis.outline, "unchanged": common_prefix(old, new)}
    assert labels(new, offset, **hint) == labels(new, offset)


def test_deep_in_a_big_file_the_reading_starts_at_the_node() -> None:
    source = big(2_000)
    analysis = analyse(source, None)
    assert analysis.outline is not None
    offset = source.index('inputs: ["n1500"]') + len('inputs: ["')
    cursor = analysis.outline.cursor(source, offset, len(source))
    whole = cursor_at(source, offset)
    assert cursor is not None and cursor.frames[1:] == whole.frames[1:]  # the graph's keys are not read
    assert (cursor.key, cursor.prefix, cursor.prefix_start, cursor.quoted) == (
        whole.key,
        whole.prefix,
        whole.prefix_start,
        whole.quoted,
    )
    assert cursor.kind() == "list:inputs" and cursor.frames[2].start == source.rindex("{", 0, offset)
    offered = labels(source, offset, outline=analysis.outline, unchanged=len(source))
    assert offered == labels(source, offset)
    assert ("n0", "n0") in offered and len(offered) == 1_999  # every id but the node's own

"""Content addresses: an experience's id is the SHA-256 of its record's canonical bytes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.experience.ids import address, experience_id, turn_id
from zerolang.experience.model import Layer


@given(
    session=st.text(),
    turn=st.text(),
    layer=st.sampled_from(list(Layer)),
    who=st.text(),
    what=st.text(),
    when=st.none() | st.text(),
    ordinal=st.integers(min_value=0, max_value=10**6),
)
def test_experience_id_is_the_address_of_its_record(
    session: str, turn: str, layer: Layer, who: str, what: str, when: str | None, ordinal: int
) -> None:
    record = {
        "kind": "experience",
        "session": session,
        "turn": turn,
        "layer": layer.value,
        "who": who,
        "what": what,
        "when": when,
        "ordinal": ordinal,
    }

    def made() -> str:
        return experience_id(
            session=session, turn=turn, layer=layer, who=who, what=what, when=when, ordinal=ordinal
        )

    try:
        expected = address(record)
    except UnicodeEncodeError:  # a lone surrogate has no UTF-8 bytes: no address either way
        with pytest.raises(UnicodeEncodeError):
            made()
        return
    assert made() == expected


def test_an_experience_id_is_stable() -> None:
    """Ids already stored stay valid: the digest the dict-and-`json.dumps` path made for this record."""
    assert (
        experience_id(
            session="s", turn="t", layer=Layer.INPUT, who="user", what='say "hé"\n', when=None, ordinal=0
        )
        == "d99e6ce0201caf833ec15741826e3353f2923d778b3f21d06160de997f5fbb04"
    )


@given(session=st.text(), key=st.text())
def test_turn_id_is_the_address_of_its_record(session: str, key: str) -> None:
    record = {"kind": "turn", "session": session, "key": key}
    try:
        expected = address(record)
    except UnicodeEncodeError:  # a lone surrogate has no UTF-8 bytes: no address either way
        with pytest.raises(UnicodeEncodeError):
            turn_id(session, key)
        return
    assert turn_id(session, key) == expected

"""Token counts (`zerolang.util.tokens`): the encoding read back from the user's cache counts as tiktoken's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tiktoken

from zerolang.util import cache, tokens

TEXTS = [
    "",
    "hello world",
    "Relevant memory:\nfacts:\ncarol diaz works at acme",
    "Ада ☃ \x1b[31m 2024-05-01",
    "  \n\n\t",
]


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("ZERO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ZERO_NO_CACHE", raising=False)
    cache.reset()
    tokens.encoding.cache_clear()
    yield tmp_path / "cache"
    cache.reset()
    tokens.encoding.cache_clear()


def cached_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("tiktoken-*.marshal"))


def test_the_cached_encoding_is_tiktokens(private_cache: Path) -> None:
    own = tiktoken.get_encoding(tokens.ENCODINGS[0])
    made = tokens.encoding()  # made by tiktoken's constructor, and kept
    assert len(cached_files(private_cache)) == 1
    tokens.encoding.cache_clear()
    read = tokens.encoding()  # read back from the cache
    assert read is not made and read.name == own.name
    for text in TEXTS:
        assert read.encode(text, disallowed_special=()) == own.encode(text, disallowed_special=())
        assert tokens.count_tokens(text) == len(own.encode(text, disallowed_special=()))


def test_a_cache_of_another_tiktoken_or_a_broken_one_is_made_again(
    private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tiktoken import registry

    name = tokens.ENCODINGS[0]
    tiktoken.get_encoding(name)  # the constructors found
    assert registry.ENCODING_CONSTRUCTORS is not None
    constructor = registry.ENCODING_CONSTRUCTORS[name]
    made: list[str] = []

    def counting() -> dict[str, object]:
        made.append(name)
        return constructor()

    monkeypatch.setitem(registry.ENCODING_CONSTRUCTORS, name, counting)

    def count(stamp: tuple[str, str, int, int]) -> int:
        monkeypatch.setattr(tokens, "_stamp", lambda _constructor: stamp)
        tokens.encoding.cache_clear()
        assert tokens.count_tokens("hello world") == 2
        return len(made)

    assert count(("1", "a", 1, 1)) == 1  # made, and kept
    assert count(("1", "a", 1, 1)) == 1  # read back
    assert count(("2", "a", 1, 1)) == 2  # another tiktoken: made again
    (file,) = cached_files(private_cache)
    data = file.read_bytes()
    file.write_bytes(data[:-10] + bytes(10))  # forged: its signature fails
    assert count(("2", "a", 1, 1)) == 3
    assert count(("2", "a", 1, 1)) == 3

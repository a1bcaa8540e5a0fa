"""BERT's uncased tokenizer, from a `tokenizer.json` vocabulary: what MiniLM was trained to read.

The steps of the `tokenizers` library's `BertNormalizer`, `BertPreTokenizer` and `WordPiece`
model, in pure Python: control characters dropped and white space made plain; spaces put around
CJK ideographs; accents stripped (NFD, combining marks removed) and lower case; words split at
white space and at every punctuation character; each word cut greedily into the longest pieces
of the vocabulary (`##` marks a piece inside a word), or `[UNK]` when it cannot be. A text
becomes `[CLS] pieces [SEP]`, at most `limit` ids long.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

MAX_WORD = 100  # longer words are [UNK], as in the vocabulary's own settings


def _is_control(char: str) -> bool:
    if char in "\t\n\r":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


def _is_whitespace(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2A6DF
        or 0x2A700 <= code <= 0x2B73F
        or 0x2B740 <= code <= 0x2B81F
        or 0x2B820 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


def normalise(text: str) -> str:
    """Clean, space CJK, strip accents, lower-case (BertNormalizer with the uncased settings)."""
    out: list[str] = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD or _is_control(char):
            continue
        if _is_whitespace(char):
            out.append(" ")
        elif _is_cjk(code):
            out.append(f" {char} ")
        else:
            out.append(char)
    decomposed = unicodedata.normalize("NFD", "".join(out))
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()


def split_words(text: str) -> list[str]:
    """White space separates words; every punctuation character is a word of its own."""
    words: list[str] = []
    current: list[str] = []
    for char in text:
        if char.isspace():
            if current:
                words.append("".join(current))
                current = []
        elif _is_punctuation(char):
            if current:
                words.append("".join(current))
                current = []
            words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


@dataclass(slots=True)
class WordPiece:
    """Text to token ids with a WordPiece vocabulary (piece -> id)."""

    vocab: Mapping[str, int]
    unknown: str = "[UNK]"
    first: str = "[CLS]"
    last: str = "[SEP]"
    _words: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def word(self, word: str) -> tuple[int, ...]:
        """The pieces of one word (longest match first), or `[UNK]` alone."""
        cached = self._words.get(word)
        if cached is not None:
            return cached
        pieces: list[int] = []
        if len(word) > MAX_WORD:
            pieces = [self.vocab[self.unknown]]
        else:
            start = 0
            while start < len(word):
                end, found = len(word), None
                while start < end:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    found = self.vocab.get(piece)
                    if found is not None:
                        break
                    end -= 1
                if found is None:
                    pieces = [self.vocab[self.unknown]]
                    break
                pieces.append(found)
                start = end
        result = tuple(pieces)
        if len(self._words) < 200_000:
            self._words[word] = result
        return result

    def encode(self, text: str, limit: int) -> list[int]:
        """`[CLS]`, the text's pieces (cut to fit), `[SEP]`: at most `limit` ids."""
        ids = [self.vocab[self.first]]
        for word in split_words(normalise(text)):
            ids.extend(self.word(word))
            if len(ids) >= limit - 1:
                break
        return [*ids[: limit - 1], self.vocab[self.last]]

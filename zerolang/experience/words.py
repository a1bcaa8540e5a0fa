"""Words: the one tokenizer and stopword list that concepts, affect and recall share."""

from __future__ import annotations

import re
from collections import Counter

from zerolang.experience.stemming import stem

_PARTS = re.compile(r"['\-]+")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")

_STOPWORDS_TEXT = """
a about above after again against ago all almost also although always am among an and another any
anybody anyone anything anyway anywhere are aren't around as at away back be became because become
been before being below beside besides between both but by can can't cannot could couldn't did
didn't do does doesn't doing don't done down during each either else enough even ever every
everybody everyone everything few for from further get gets getting got gotten had hadn't has hasn't
have haven't having he he'd he'll he's her here here's hers herself him himself his how how's
however i i'd i'll i'm i've if in into is isn't it it's its itself just let let's lot lots may me
might mine more most much must mustn't my myself need needs neither never no nobody none nor not
nothing now of off often oh ok okay on once one ones only onto or other others otherwise ought our
ours ourselves out over own per perhaps please quite rather really same shall shan't she she'd
she'll she's should shouldn't since so some somebody someone something sometimes somewhat soon still
such than that that's the their theirs them themselves then there there's these they they'd they'll
they're they've thing things this those though through thus till to too toward towards under until
up upon us very via was wasn't we we'd we'll we're we've were weren't what what's whatever when
when's whenever where where's wherever whether which while who who's whoever whom whose why why's
will with within without won't would wouldn't yeah yes yet you you'd you'll you're you've your yours
yourself yourselves hey hi hello thanks thank wow yep yup hmm um uh ah
"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORDS_TEXT.split(maxsplit=-1))

_COMMON_TEXT = """
able actually add added almost already anyway asked ask awesome bad best better big bit came come
comes coming could day days definitely did different doing done each easy else feel feeling feels
felt find fine first found gave give given gives giving glad go goes going gone good great guess
happy hard help helped hope hoping idea ideas important interesting keep kind knew know known last
later least left less like liked likes little long look looked looking looks love loved made make
makes making many maybe mean means meant much new next nice old part pretty probably put ready real
right said saw say saying says see seeing seem seemed seems seen sense show showed shows small
sounds start started stuff super sure take taken takes taking talk talked talking tell telling
thought time times tried tries try trying turn two use used using want wanted wants way ways went
whole wonderful work worked working works world year years amazing cool totally true truly glad
lately recently today tomorrow yesterday week weeks month months morning night everything anything
"""
COMMON: frozenset[str] = frozenset(_COMMON_TEXT.split(maxsplit=-1))
"""Frequent words that are rarely what a conversation is about: not concepts on their own."""


# A word as `WORD` finds it, without the trailing apostrophes and hyphens `words` strips (it
# starts with a letter or digit, so only its end can lose any): one regex pass, no per-word work.
_STRIPPED = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9'’\-]*[A-Za-z0-9])?")


# An ASCII text's bytes with every byte no word holds made a space: its words are then its runs of
# other bytes (what `str.split` finds, several times faster than a regex), each stripped of the
# apostrophes and hyphens it starts or ends with (`ascii_words`). `’` is no ASCII character.
_IN_WORDS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'-")
SPACED = bytes(byte if byte in _IN_WORDS else 0x20 for byte in range(256))


def spaced(text: str) -> str:
    """An ASCII `text` with every character no word holds made a space (the same length)."""
    return text.encode("ascii").translate(SPACED).decode("ascii")


def ascii_words(runs: str) -> list[str]:
    """The words of an ASCII text that `spaced` made (or a part of one): what `_STRIPPED` finds."""
    found = runs.split()
    if "'" not in runs and "-" not in runs:
        return found
    return [word for run in found if (word := run.strip("'-"))]


def words(text: str) -> list[str]:
    """The words of a text, as written (apostrophes normalised to `'`)."""
    if text.isascii():
        return ascii_words(spaced(text))
    if "’" in text:
        return [w.replace("’", "'") for w in _STRIPPED.findall(text)]
    return _STRIPPED.findall(text)


def lower_words(text: str) -> list[str]:
    """`words(text)`, each lowercased (the list is shared with the next call for the same text: read
    it, do not change it)."""
    global _LAST
    last = _LAST  # one reference, swapped whole: a thread sees a text with its own words
    if last[0] is text:  # capture reads each text for its affect, then for recall's postings
        return last[1]
    # lowercasing ASCII keeps every character in or out of words
    found = ascii_words(spaced(text.lower())) if text.isascii() else [word.lower() for word in words(text)]
    _LAST = (text, found)
    return found


_LAST: tuple[str | None, list[str]] = (None, [])  # the text split last (held: no other takes its identity)


def raw_words(text: str) -> list[str]:
    """The words of a text as `words` finds them, `’` left as written (for a caller that drops every word
    with an apostrophe anyway)."""
    if text.isascii():
        return ascii_words(spaced(text))
    return _STRIPPED.findall(text)


def terms(text: str) -> list[str]:
    """The lowercase content words of a text, stopwords left out, in order (repeats kept)."""
    out: list[str] = []
    for word in words(text):
        lower = word.lower()
        if lower and lower not in STOPWORDS and len(lower) > 1:
            out.append(lower)
    return out


def index_terms(text: str) -> list[str]:
    """The terms recall's full text indexes and looks up, in order (repeats kept): the content words
    of `terms`, a possessive `'s` dropped, split at apostrophes and hyphens (`well-known`: `well`,
    `known`; words are ASCII, as `words` finds them), each part of two characters or more and no
    stopword, stemmed (`stemming.stem`). One function for what is stored and what is asked, on
    every engine."""
    return [term for word in lower_words(text) for term in word_terms(word)]


def counted_terms(text: str) -> tuple[dict[str, int], int]:
    """How often `text` says each of its `index_terms`, and its number of words (`lower_words`): what
    recall's full text keeps of it, each distinct word worked out once."""
    found = lower_words(text)
    counts: dict[str, int] = {}
    known = _WORD_TERMS
    for word, times in Counter(found).items():
        parts = known.get(word)
        if parts is None:
            parts = word_terms(word)
        for term in parts:
            counts[term] = counts.get(term, 0) + times
    return counts, len(found)


_WORD_TERMS: dict[str, tuple[str, ...]] = {}  # each lowercase word met: its index terms (bounded)
_WORD_TERMS_AT_MOST = 1 << 15  # ~5 MB: a capture meets far fewer distinct words that recur


def word_terms(word: str) -> tuple[str, ...]:
    """The index terms of one lowercase word of `lower_words` (what `index_terms` makes of it), worked
    out once per distinct word."""
    found = _WORD_TERMS.get(word)
    if found is None:
        found = _word_terms(word)
        if len(_WORD_TERMS) >= _WORD_TERMS_AT_MOST:  # a bound on memory, whatever the text
            _WORD_TERMS.clear()
        _WORD_TERMS[word] = found
    return found


def _word_terms(word: str) -> tuple[str, ...]:
    if word in STOPWORDS:
        return ()
    if word.endswith("'s"):
        word = word[:-2]
    parts = _PARTS.split(word) if ("'" in word or "-" in word) else (word,)
    return tuple(stem(part) for part in parts if len(part) > 1 and part not in STOPWORDS)

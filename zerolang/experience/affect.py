"""Affect: how strongly a text expresses each of Panksepp's seven primary affects, 0..1.

`AffectExtractor` is the interface; `LexiconAffect` is the default, deterministic
and offline. Each affect has a lexicon of words (an entry ending in `*` matches
any word it begins; the others match whole words, case-insensitively). A text's
score for an affect is `hits / (hits + 2)` over its matching words, so one hit
gives 0.33, two 0.5, six 0.75, never 1; a question mark counts as one SEEKING
hit. Affects with no hit are left out (read them as 0). Scores are rounded to
three decimals, so the same text always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from zerolang.experience.model import AFFECTS
from zerolang.experience.words import lower_words


class AffectExtractor(Protocol):
    def score(self, text: str) -> dict[str, float]:
        """Affect name (one of `model.AFFECTS`) -> intensity in 0..1; absent means 0."""
        ...


_WORDS: Mapping[str, str] = {
    "SEEKING": (
        "curious curiosity wonder* explor* learn* discover* search* interest* investigat* research* "
        "understand* figure figured fascinat* eager* plan plans planning goal* dream* hope* hoping idea "
        "ideas question* why how try trying experiment* study* studied excited exciting adventur* new "
        "find finding look_into intrigu* inspir*"
    ),
    "RAGE": (
        "angry anger* furious rage* mad annoy* irritat* frustrat* hate* hated outrag* unfair resent* "
        "hostil* damn* pissed livid infuriat* fed_up disgust* bitter* yell* fight* fought"
    ),
    "FEAR": (
        "afraid fear* scared scary anxious anxiety worry worried worries worrying nervous* terrif* "
        "danger* threat* risk* unsafe dread* alarm* uneasy panic* frighten* insecur* stress* overwhelm* "
        "careful warn*"
    ),
    "LUST": (
        "desire* crave* craving sexy attracti* attracted passion* romanc* romantic* kiss* lust* flirt* "
        "sensual* seduc* intimat* crush beautiful gorgeous date dating"
    ),
    "CARE": (
        "care cares caring cared love loved loving support* help helped helping helpful kind kindness "
        "gentle* comfort* protect* nurtur* thank* grateful gratitude family families friend* child* kid "
        "kids mom dad mother father parent* together hug* proud warm* compassion* empath* adopt* "
        "volunteer* community encourag*"
    ),
    "PANIC_GRIEF": (
        "lonely loneliness alone miss missed missing lost loss grief griev* sad sadness cry cried crying "
        "tears abandon* heartbr* mourn* died death passed_away separat* homesick isolat* hurt* depress* "
        "breakup divorce* funeral sorrow* unhappy"
    ),
    "PLAY": (
        "fun funny play playing played playful laugh* joke* game* enjoy* haha* lol silly party parties "
        "danc* amus* hilarious yay celebrat* tease* teasing pun puns blast hike* hiking camping concert* "
        "festival*"
    ),
}
LEXICON: Mapping[str, tuple[str, ...]] = {
    affect: tuple(entry.replace("_", " ") for entry in entries.split()) for affect, entries in _WORDS.items()
}
"""Each affect's entries; `_` in the source word lists stands for a space (a phrase)."""
_SEEN_AT_MOST = 200_000


class LexiconAffect:
    """The default affect extractor: word lists per affect (see the module docstring)."""

    def __init__(self, lexicon: Mapping[str, tuple[str, ...]] = LEXICON) -> None:
        self._exact: dict[str, list[str]] = {}
        self._prefixes: dict[str, list[str]] = {}  # a prefix entry without its `*`: its affects
        self._phrases: list[tuple[str, str]] = []
        for affect, entries in lexicon.items():
            if affect not in AFFECTS:
                raise ValueError(f"unknown affect {affect!r} (known: {', '.join(AFFECTS)})")
            for entry in entries:
                if " " in entry:
                    self._phrases.append((entry, affect))
                elif entry.endswith("*"):
                    self._prefixes.setdefault(entry[:-1], []).append(affect)
                else:
                    self._exact.setdefault(entry, []).append(affect)

        self._lengths = sorted({len(prefix) for prefix in self._prefixes})  # the prefix entries' lengths
        self._seen: dict[str, tuple[str, ...]] = {}  # each word met, lowercased: the affects it hits

    def _affects(self, lower: str) -> tuple[str, ...]:
        """The affects one lowercased word hits (each once), worked out once per distinct word."""
        found = self._seen.get(lower)
        if found is None:
            matched = dict.fromkeys(self._exact.get(lower, ()))
            prefixes = self._prefixes
            for end in self._lengths:  # each of its beginnings as long as a prefix entry, looked up
                if end > len(lower):
                    break
                hit = prefixes.get(lower[:end])
                if hit:
                    matched.update(dict.fromkeys(hit))
            found = tuple(matched)
            if len(self._seen) >= _SEEN_AT_MOST:  # a bound on memory, whatever the text
                self._seen.clear()
            self._seen[lower] = found
        return found

    def score(self, text: str) -> dict[str, float]:
        hits: dict[str, int] = {}
        found = lower_words(text)
        met = list(map(self._seen.get, found))  # each word's affects, looked up without a Python loop
        if None in met:  # a word not met before: worked out once
            for index, affects in enumerate(met):
                if affects is None:
                    met[index] = self._affects(found[index])
        for affects in filter(None, met):  # only the words that hit an affect
            for affect in affects:
                hits[affect] = hits.get(affect, 0) + 1
        lowered = text.lower()
        for phrase, affect in self._phrases:
            count = lowered.count(phrase)
            if count:
                hits[affect] = hits.get(affect, 0) + count
        if "?" in text:
            hits["SEEKING"] = hits.get("SEEKING", 0) + 1
        scores: dict[str, float] = {}
        for affect in AFFECTS:  # a loop, not a comprehension: that is a function call in Python 3.11
            if affect in hits:
                scores[affect] = round(hits[affect] / (hits[affect] + 2), 3)
        return scores

"""What a question asks for, from its wording: several things, or an inference about someone;
and whether a message asks at all.

A question that asks for several things ("what books has she read?", "which cities has he
visited?", "what do they both like?") or what someone would likely do or be ("would she enjoy
...?", "what might his degree be in?") is about the life of the person it names: recall weighs
what that person said more (`RecallWeights.about`) than for other questions, whose wording may
name the wrong person. The several things are told in several conversations more often than in
one, so for such a question recall also spreads its ranking over sessions (`RecallWeights.spread`).
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_ASKING = frozenset({"what", "which"})
_INFERENCE = frozenset({"would", "likely", "might", "could"})
_NOT_PLURAL = frozenset({"is", "was", "has", "does", "its", "his", "this", "us", "as"})
# what may follow the plural a question asks for ("what books has ...", "which events for ...");
# a verb may not ("what motivates her ...", "which song helps him ...")
_AFTER_PLURAL = frozenset(
    {"do", "does", "did", "has", "have", "had", "are", "were", "is", "was", "can", "will", "would"}
    | {"could", "should", "might", "may", "of", "for", "in", "from", "at", "with", "to", "about"}
    | {"on", "and", "or"}
)


def _plural(word: str) -> bool:
    return (
        len(word) > 3
        and word.endswith("s")
        and not word.endswith(("ss", "us", "'s"))
        and word not in _NOT_PLURAL
    )


def asks_for_several(question: str) -> bool:
    """True when `question` asks for several things: a plural noun within two words after `what` or
    `which`, followed by an auxiliary, a preposition, `and`/`or` or nothing ("what books has ...",
    "which big cities have ...", "what events for ..."; not the verb of "what motivates her ..."),
    or `both`."""
    return _several(_WORD.findall(question.lower()))


def _several(found: list[str]) -> bool:
    """`asks_for_several` of a question's lowercased words."""
    if "both" in found:
        return True
    return any(
        found[index] in _ASKING
        and _plural(found[at])
        and (at + 1 == len(found) or found[at + 1] in _AFTER_PLURAL)
        for index in range(len(found))
        for at in range(index + 1, min(index + 3, len(found)))
    )


def asks_about_someone(question: str) -> bool:
    """True when `question` asks for several things (`asks_for_several`) or for an inference
    (`would`, `likely`, `might`, `could`)."""
    found = _WORD.findall(question.lower())
    return any(word in _INFERENCE for word in found) or _several(found)


def ends_asking(text: str) -> bool:
    """True when `text` ends with a question: its last sentence ends with `?` ("That's great! How did
    it go?"), not when a question is followed by a statement ("How? I went there.")."""
    return text.rstrip().endswith("?")

"""Plain Okapi BM25 (k1 1.2, b 0.75) over whole turns: the baseline bench_locomo.py prints.

Lowercase alphanumeric words, no stemming, no stopword list: the textbook
ranker, so the baseline is what anyone would get out of the box.
"""

from __future__ import annotations

import math
import re
from collections import Counter

_WORD = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class BM25:
    def __init__(self, documents: dict[str, str], k1: float = 1.2, b: float = 0.75) -> None:
        self.ids = list(documents)
        self.k1, self.b = k1, b
        self.docs = [Counter(tokens(documents[i])) for i in self.ids]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = sum(self.lengths) / max(len(self.lengths), 1)
        frequency: Counter[str] = Counter()
        for doc in self.docs:
            frequency.update(doc.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in frequency.items()}

    def rank(self, query: str, limit: int) -> list[str]:
        words = [t for t in tokens(query) if t in self.idf]
        scored = []
        for index, doc in enumerate(self.docs):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.lengths[index] / self.average)
            for word in words:
                tf = doc.get(word, 0)
                if tf:
                    score += self.idf[word] * tf * (self.k1 + 1) / (tf + norm)
            if score > 0:
                scored.append((-score, index))
        scored.sort()
        return [self.ids[index] for _, index in scored[:limit]]

"""What `zerolang.runtime.fit` finds: an input no node reads, a value the op it reaches does not use.

Apart from `fit` so that a run whose inputs fit builds neither class (start-up, issue 43).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from zerolang.runtime.values import Value, type_name


@dataclass(frozen=True, slots=True)
class Unread:
    """An input given that no External node reads, and the one it most likely meant."""

    name: str
    meant: str | None

    def message(self) -> str:
        text = f"no External node reads input `{self.name}`"
        return text + (f": did you mean `{self.meant}`?" if self.meant else "")


@dataclass(frozen=True, slots=True)
class Misfit:
    """A run input whose value the op it reaches does not use (a string into `Multiply`)."""

    name: str
    node: str
    op: str
    value: Value
    wants: str  # "number" or "string"

    def message(self) -> str:
        if isinstance(self.value, str):
            shown = json.dumps(self.value, ensure_ascii=False)
            kind = "the string " + (shown if len(shown) <= 40 else shown[:37] + '..."')
        else:
            kind = _article(type_name(self.value))
        what = "string" if isinstance(self.value, str) else type_name(self.value)
        text = f"input `{self.name}` is {kind}, but `{self.op}` (node `{self.node}`) reads only {self.wants}s"
        text += f", so the {what} is not used"
        hint = self.hint()
        return text + (f": pass {hint}" if hint else "")

    def hint(self) -> str | None:
        """How to give the value the op wants, in `--input` form, when one is plain."""
        if self.wants == "number" and isinstance(self.value, str):
            if _number_text(self.value):
                return f"`-i {self.name}:={self.value.strip()}` for a number"
            return None
        if self.wants == "string" and type(self.value) in (int, float):
            return f"`-i {self.name}={json.dumps(self.value)}` for a string"
        return None


def _article(kind: str) -> str:
    return ("an " if kind[:1] in "AEIOU" else "a ") + kind


def _number_text(text: str) -> bool:
    try:
        number = json.loads(text)
    except ValueError:
        return False
    return type(number) in (int, float)

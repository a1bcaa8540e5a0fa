"""The store writes an experience's affect as `json.dumps(affect, sort_keys=True)` would, by a direct
path for what extractors give (`zerolang.storage.sql.experiences.affect_json`) and by json otherwise."""

from __future__ import annotations

import json
import math

import pytest

from zerolang.experience.model import AFFECTS
from zerolang.storage.sql.experiences import affect_json


class Half(float):
    pass


@pytest.mark.parametrize(
    "affect",
    [
        {},
        {"SEEKING": 0.333},
        {"PLAY": 0.6, "CARE": 0.5, "SEEKING": 0.333},
        dict.fromkeys(AFFECTS, 0.75),
        {"FEAR": 1e-05, "RAGE": 1.0, "LUST": 0.0, "PANIC_GRIEF": -0.0},
        {"FEAR": 1, "RAGE": 0.5},  # an int: json writes `1`, not `1.0`
        {"FEAR": True},
        {"FEAR": math.nan, "CARE": math.inf, "PLAY": -math.inf},
        {"fear": 0.5, 'Ünknown "key"': 0.25},
        {"FEAR": Half(0.5)},
    ],
)
def test_affect_json_writes_what_json_does(affect: dict[str, float]) -> None:
    assert affect_json(affect) == json.dumps(affect, sort_keys=True)

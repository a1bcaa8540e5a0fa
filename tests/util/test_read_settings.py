"""`$ZERO_MEMORY_READ_DB` and its two bounds (`zerolang.util.config.read_settings`): read from the
environment once, in one home; a malformed one is one line naming the variable."""

from __future__ import annotations

import pytest

from zerolang.util.config import READ_LAG_S, READ_WAIT_S, ReadSettings, read_settings
from zerolang.util.errors import ZeroError


def test_no_standbys_read_the_primary() -> None:
    assert read_settings({}) == ReadSettings((), READ_WAIT_S, READ_LAG_S)
    assert read_settings({"ZERO_MEMORY_READ_DB": ""}).standbys == ()


def test_a_comma_list_of_standbys_and_the_bounds() -> None:
    found = read_settings(
        {
            "ZERO_MEMORY_READ_DB": " postgresql://a@s1/memory , postgres://s2 ,",
            "ZERO_MEMORY_READ_WAIT": "0.05",
            "ZERO_MEMORY_READ_LAG": "2",
        }
    )
    assert found == ReadSettings(("postgresql://a@s1/memory", "postgres://s2"), 0.05, 2.0)


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        (
            "ZERO_MEMORY_READ_DB",
            "postgresql://s1,/tmp/memory.db",
            "not a postgresql:// URL: '/tmp/memory.db'",
        ),
        ("ZERO_MEMORY_READ_DB", "mysql://u:secret@s1/m", "not a postgresql:// URL: 's1/m'"),
        ("ZERO_MEMORY_READ_WAIT", "soon", "$ZERO_MEMORY_READ_WAIT: not a number of seconds"),
        ("ZERO_MEMORY_READ_LAG", "-1", "$ZERO_MEMORY_READ_LAG: not a number of seconds"),
    ],
)
def test_a_malformed_setting_is_one_line_naming_it(variable: str, value: str, said: str) -> None:
    with pytest.raises(ZeroError) as raised:
        read_settings({variable: value})
    assert said in str(raised.value) and "\n" not in str(raised.value)
    assert "secret" not in str(raised.value)

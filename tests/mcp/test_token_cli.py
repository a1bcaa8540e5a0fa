"""`zero mcp token create|list|revoke`: the token printed once, on the last line; the list shows no
token, only ids; bad input is one line and exit 1, nothing made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("mcp")

import zerolang.memory
from zerolang.cli.app import app


def zero(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(arguments), env={"ZERO_MEMORY_DB": "", "ZERO_MEMORY_SPACE": ""})
    return result.exit_code, result.stdout, result.stderr


def test_create_list_revoke(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    code, out, _ = zero(
        "mcp", "token", "create", "--db", db, "--space", "team", "--read-only", "--name", "ci"
    )
    assert code == 0
    *said, secret = out.strip().splitlines()
    assert secret.startswith("zmt_") and " " not in secret
    assert "read-only on space team, never expires" in said[0]
    with zerolang.memory.open(db) as memory:
        grant = memory.token_grant(secret)
        assert grant is not None and (grant.space, grant.read_only) == ("team", True)
        (token,) = memory.tokens()
    code, out, _ = zero("mcp", "token", "list", "--db", db)
    assert code == 0 and secret not in out
    assert out.split() == [token.id, "team", "read-only", "active", "expires", "never", "ci"]
    code, out, _ = zero("mcp", "token", "list", "--db", db, "--json")
    (listed,) = json.loads(out)["tokens"]
    assert listed["id"] == token.id and listed["state"] == "active" and listed["access"] == "read-only"
    code, out, _ = zero("mcp", "token", "revoke", secret, "--db", db)
    assert code == 0 and out.startswith(f"revoked token {token.id} (space team) at ")
    code, out, _ = zero("mcp", "token", "list", "--db", db, "--json")
    assert json.loads(out)["tokens"][0]["state"] == "revoked"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["create", "--expires", "soon"], "--expires 'soon': not a duration"),
        (["create", "--space", "a b"], "not a space name"),
        (["revoke", "0123456789ab"], "no access token '0123456789ab'"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, arguments: list[str], message: str) -> None:
    db = str(tmp_path / "m.db")
    zero("mcp", "token", "create", "--db", db)
    code, out, err = zero("mcp", "token", *arguments, "--db", db)
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [f"error: {err.strip().removeprefix('error: ')}"]
    assert message in err and "Traceback" not in err
    with zerolang.memory.open(db) as memory:
        assert len(memory.tokens()) == 1


def test_the_http_options_go_with_http(tmp_path: Path) -> None:
    for arguments, message in (
        (["--port", "9000"], "--host, --port, --path and --allow-host go with --http"),
        (["--url", "https://x/mcp"], "--url goes with --print-config"),
        (["--print-config", "cursor", "--token-env", "T"], "--token-env goes with --url"),
        (["--http", "--path", "mcp"], "--path 'mcp': a path such as /mcp"),
    ):
        code, _, err = zero("mcp", *arguments, "--db", str(tmp_path / "m.db"))
        assert code == 1 and message in err, err

"""The MCP session of docs/mcp.md is real: examples/mcp_session.py prints exactly what the page shows.

The README runs the same session as a console example (tests/test_readme.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGE = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")


def test_the_docs_session_is_what_the_example_prints(tmp_path: Path) -> None:
    section = PAGE.split("A session, as a client sees it", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "mcp_session.py"), str(tmp_path / "agent.db")],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == block.group(1)


@pytest.mark.parametrize(
    ("text", "heading"),
    [(PAGE, "# Memory as agent tools: `zero mcp`"), (README, "## Agent tools: MCP")],
    ids=["docs/mcp.md", "README.md"],
)
def test_the_client_configuration_is_valid_json_that_names_real_options(text: str, heading: str) -> None:
    section = text.split(heading, 1)[1]
    block = re.search(r"```json\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None
    server = json.loads(block.group(1))["mcpServers"]["memory"]
    assert server["command"] == "zero" and server["args"][0] == "mcp"
    from zerolang.cli.app import load_command

    command = load_command("mcp")
    options = {name for param in getattr(command, "params", []) for name in getattr(param, "opts", [])}
    assert {arg for arg in server["args"] if arg.startswith("--")} <= options

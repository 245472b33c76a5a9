"""A configured linter that is not installed: one note for the run and exit 2, not an error per module.

The child runs on this interpreter with ``-S`` and a site folder holding everything installed here
except ruff, so ruff is really absent (nothing of ours is replaced)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

from tests.lint.conftest import FIXTURE_ADDONS, REPO, run_cli

INSTALL = "pip install ruff=="
NoRuff = tuple[list[str], Path, str]  # command, work folder, PYTHONPATH


@pytest.fixture(scope="module")
def no_ruff(tmp_path_factory: pytest.TempPathFactory) -> NoRuff:
    base = tmp_path_factory.mktemp("no-ruff")
    site = base / "site"
    site.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.lower().startswith("ruff") and entry.suffix != ".pth":
            (site / entry.name).symlink_to(entry)
    addons = base / "addons"
    addons.mkdir()
    shutil.copytree(FIXTURE_ADDONS / "library_base", addons / "library_base")
    (addons / "ruff.toml").write_text('[lint]\nselect = ["E", "F"]\n', encoding="utf-8")
    env_path = f"{REPO}:{site}"
    return [sys.executable, "-S", "-m", "assista_mcp"], base, env_path


def _check(no_ruff: NoRuff, fmt: str) -> tuple[int, str, str]:
    command, base, env_path = no_ruff
    args = ["check", "--addons-path", str(base / "addons"), "--checks", "flake8", "--format", fmt]
    result = run_cli(args, base, base / f"cache-{fmt}", {"PYTHONPATH": env_path}, command=command)
    return result.returncode, result.stdout, result.stderr


def test_missing_ruff_is_one_note_and_exit_2_in_every_format(no_ruff: NoRuff) -> None:
    for fmt in ("text", "json", "junit", "sarif", "github"):
        code, out, err = _check(no_ruff, fmt)
        assert code == 2, (fmt, out, err)
        assert "Traceback" not in err
        assert "ruff is not installed" in err and INSTALL in err  # the pinned version, once
        # json: in notes and in incomplete; junit: the error's message and text
        assert out.count(INSTALL) == (2 if fmt in ("json", "junit") else 1), (fmt, out)
        assert "tool-missing" not in out  # no per-module finding
        if fmt == "json":
            report = json.loads(out)
            assert report["findings"] == [] and len(report["incomplete"]) == 1
        if fmt == "junit":
            suite = ET.fromstring(out).find("testsuite")
            assert suite is not None and suite.get("errors") == "1"
            assert len(suite.findall("testcase/error")) == 1
        if fmt == "sarif":
            invocation = json.loads(out)["runs"][0]["invocations"][0]
            assert invocation["executionSuccessful"] is False
        if fmt == "github":
            assert "::error title=assista-odoo check incomplete::ruff is not installed" in out
        if fmt == "text":
            assert "INCOMPLETE: 1 module(s)" in out


@pytest.mark.anyio
async def test_mcp_lint_tool_says_once_that_a_check_could_not_run(no_ruff: NoRuff) -> None:
    command, base, env_path = no_ruff
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env |= {
        "PYTHONPATH": env_path,
        "ASSISTA_HOME": str(base / "home"),
        "ASSISTA_CACHE_DIR": str(base / "mcp"),
    }
    params = StdioServerParameters(
        command=command[0],
        args=[*command[1:], "serve", "--addons-path", str(base / "addons")],
        env=env,
        cwd=str(base),
    )
    async with Client(stdio_client(params), read_timeout_seconds=120) as client:
        result = await client.call_tool("lint_module", {"module": "library_base", "checks": ["flake8"]})
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None and data["passed"] is False
    assert len(data["incomplete"]) == 1 and INSTALL in data["incomplete"][0]
    assert not any(f["code"] == "tool-missing" for f in data["findings"])
    text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
    assert "INCOMPLETE" in text and text.count(INSTALL) == 1

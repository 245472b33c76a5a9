"""Input nested deeper than a pass can take is a finding on that file, never a traceback nor an
MCP internal error, and the other modules are migrated (issue 35, item 7)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from assista_mcp.cli import main


def _module(root: Path, name: str, files: dict[str, str], data: tuple[str, ...] = ()) -> Path:
    folder = root / name
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    manifest = {"name": name, "version": "16.0.1.0.0", "depends": ["base"], "data": list(data)}
    (folder / "__manifest__.py").write_text(repr(manifest) + "\n")
    (folder / "__init__.py").touch()
    return folder


def _view(attrs_domain: str) -> str:
    return (
        '<odoo><record id="v" model="ir.ui.view"><field name="model">res.partner</field>'
        f'<field name="arch" type="xml"><form><field name="name" attrs="{{\'invisible\': {attrs_domain}}}"/>'
        "</form></field></record></odoo>\n"
    )


@pytest.fixture
def deep_modules(tmp_path: Path) -> Path:
    root = tmp_path / "addons"
    # 3,000 prefix operators: one recursion per operator in the domain translation
    deep = "[" + "'|', " * 3000 + ", ".join(["('a', '=', 1)"] * 3001) + "]"
    _module(root, "deep_attrs", {"views/v.xml": _view(deep)}, ("views/v.xml",))
    # A valid 2,900-term expression (Python compiles it): libcst recursed once per term
    terms = " + ".join(["1"] * 2900)
    python = (
        "from odoo import api, models\n\n\nclass X(models.Model):\n    _inherit = 'res.partner'\n\n"
        f"    @api.multi\n    def f(self):\n        return {terms}\n"
    )
    _module(root, "deep_python", {"__init__.py": "from . import x\n", "x.py": python})
    _module(root, "plain", {"views/v.xml": _view("[('a', '=', 1)]")}, ("views/v.xml",))
    return root


def test_cli_migrate_turns_deep_inputs_into_findings(
    deep_modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    started = time.monotonic()
    code = main(["migrate", str(deep_modules), "--to", "17.0", "--no-diff"])
    out = capsys.readouterr().out
    assert time.monotonic() - started < 20
    assert code == 1, out
    assert (
        "error: deep_attrs/views/v.xml:1: [removed-attrs] attrs could not be rewritten: its operators nest"
        in out
    )
    assert "warning: deep_python/x.py: [too-deep-to-migrate] not migrated" in out
    assert "plain: 16.0 -> 17.0" in out and "removed-attrs x1" in out  # the other module is migrated


@pytest.mark.anyio
async def test_mcp_migrate_module_answers_with_the_finding(
    server_for: Callable[..., Any], deep_modules: Path
) -> None:
    async with Client(server_for(deep_modules)) as client:
        result = await client.call_tool("migrate_module", {"module": "deep_attrs", "to_series": "17.0"})
        deep = await client.call_tool("migrate_module", {"module": "deep_python", "to_series": "17.0"})
    assert not result.is_error and not deep.is_error
    [module] = result.structured_content["modules"]
    assert [f["code"] for f in module["steps"][0]["findings"]] == ["removed-attrs"]
    [module] = deep.structured_content["modules"]
    assert [f["code"] for f in module["steps"][0]["findings"]] == ["too-deep-to-migrate"]

"""Issue 30's false errors, through the CLI and MCP against the bundled 18.0 series pack. Each of
these modules installs on a real Odoo 18 (``odoo-bin -i``, recorded in the fixtures' README) except
``compose_wrong``, whose view Odoo refuses: 'Field "phone" does not exist in model
"mail.compose.message"'."""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from odoo_tools.runs._pg import PgParams
from odoo_tools.runs._validate import OdooRunner, RunnerConfig
from odoo_tools.series import pack
from tests.lint.conftest import REPO, run_cli

CASES = REPO / "fixtures" / "core_pack_cases"


def _check(tmp_path: Path, module: str, *extra: str) -> tuple[int, list[dict[str, Any]], list[str]]:
    addons = tmp_path / "addons"
    shutil.copytree(CASES / module, addons / module)
    result = run_cli(
        ["check", "--checks", "static", "--addons-path", str(addons), "--format", "json", *extra],
        cwd=tmp_path,
        cache=tmp_path / "cache",
    )
    assert "Traceback" not in result.stderr, result.stderr
    payload = json.loads(result.stdout)
    return result.returncode, payload["findings"], payload["notes"]


def test_the_bundled_18_pack_is_there() -> None:
    found = pack("18.0")
    assert found is not None and found.series == "18.0" and len(found.modules) > 400


def test_cron_fields_through_delegation_and_the_setattr_global_of_rules_are_known(tmp_path: Path) -> None:
    code, findings, notes = _check(tmp_path, "cron_and_rule")
    assert [f for f in findings if f["severity"] == "error"] == []
    assert code == 0
    assert any("checked from the Odoo 18.0 series pack" in n for n in notes)
    assert not any("models and xml ids of Odoo's core modules are not checked" in n for n in notes)


def test_new_nodes_of_an_xpath_going_up_are_checked_on_the_view_s_model(tmp_path: Path) -> None:
    code, findings, _ = _check(tmp_path, "compose_log")
    assert [f for f in findings if f["severity"] == "error"] == [] and code == 0


def test_a_wrong_name_does_not_pass_for_being_on_a_related_model(tmp_path: Path) -> None:
    code, findings, _ = _check(tmp_path, "compose_wrong")
    errors = [
        (f["code"], f["path"].rsplit("/", 1)[-1], f["line"]) for f in findings if f["severity"] == "error"
    ]
    assert errors == [("view-field-unknown", "mail_compose_message_views.xml", 9)]
    assert "mail.compose.message" in next(f["message"] for f in findings if f["code"] == "view-field-unknown")
    assert code == 1


@pytest.mark.anyio
async def test_find_model_answers_a_core_model_from_the_pack(server_for: Callable[..., Any]) -> None:
    async with Client(server_for(CASES)) as client:
        result = await client.call_tool("find_model", {"model": "ir.cron"})
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None
    assert data["defined_in"][0]["module"] == "base" and "18.0 series pack" in data["known_from"]
    fields = {f["name"]: f for f in data["fields"]}
    assert fields["name"]["via"] == "ir.actions.server" and fields["code"]["via"] == "ir.actions.server"
    assert data["delegates_to"] == {"ir.actions.server": "ir_actions_server_id"}
    assert "No model" not in result.content[0].text  # type: ignore[union-attr]


ODOO_BIN = os.environ.get("ASSISTA_TEST_ODOO_BIN", "")


@pytest.mark.odoo
@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.skipif(not ODOO_BIN, reason="set ASSISTA_TEST_ODOO_BIN to run against a real Odoo")
@pytest.mark.parametrize("module", ["cron_and_rule", "compose_log", "compose_wrong"])
def test_a_real_odoo_agrees_with_check(tmp_path: Path, module: str) -> None:
    """Opt-in: a real ``-i`` of each case installs exactly when ``check`` gives it no error."""
    runner = OdooRunner(
        RunnerConfig(
            addons_paths=[CASES],
            cache_dir=tmp_path / "odoo-cache",
            pg=PgParams.resolve(),
            odoo_bin=Path(ODOO_BIN),
            odoo_python=os.environ.get("ASSISTA_TEST_ODOO_PYTHON") or None,
            db_prefix=f"assista_pack{secrets.token_hex(2)}_",
            timeout=900.0,
        )
    )
    try:
        result = runner.validate_sync("install", [module])
    finally:
        runner.cache.clear()  # its template databases too
    _, findings, _ = _check(tmp_path, module)
    assert result.ok == (not [f for f in findings if f["severity"] == "error"]), result


@pytest.mark.anyio
async def test_find_field_answers_a_delegated_core_field_from_the_pack(
    server_for: Callable[..., Any],
) -> None:
    async with Client(server_for(CASES)) as client:
        found = await client.call_tool("find_field", {"field": "global", "model": "ir.rule"})
        missing = await client.call_tool("find_field", {"field": "stat", "model": "ir.cron"})
    assert not found.is_error and found.structured_content is not None
    assert found.structured_content["matches"][0]["module"] == "base"
    assert missing.is_error and "state" in missing.content[0].text  # type: ignore[union-attr]

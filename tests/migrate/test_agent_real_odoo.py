"""Opt-in (real Odoo 18): the agent finishes a migration the deterministic pass leaves failing.

    ASSISTA_TEST_ODOO_BIN=/path/to/odoo18/odoo-bin ASSISTA_TEST_ODOO_PYTHON=/path/to/venv/python \\
    PGHOST=... PGUSER=... PGPASSWORD=... .venv/bin/python -m pytest tests/migrate/test_agent_real_odoo.py

``assista-odoo run "migrate mig_views to 18.0"`` against the scripted model: it calls migrate_module
(write), the validation after the turn runs the module's own tests on the real Odoo 18 and hands the
failure back (18.0 no longer calls the module's _name_search override), the model replays the right
fix (the same search as _search_display_name) and the next validation is green.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.runs import OdooRunner, PgParams, RunnerConfig
from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import join_spare_threads
from tests.safety.conftest import RunAgent, StartServer, call, model_env, model_server, run_agent

__all__ = ["model_env", "model_server", "run_agent"]  # the agent tests' fixtures, used here

ODOO_BIN = os.environ.get("ASSISTA_TEST_ODOO_BIN", "")
ODOO_PYTHON = os.environ.get("ASSISTA_TEST_ODOO_PYTHON") or None
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "migrate" / "v17" / "mig_views"
MODEL = "mig_views/models/note.py"

pytestmark = [
    pytest.mark.odoo,
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(not ODOO_BIN, reason="set ASSISTA_TEST_ODOO_BIN to run against a real Odoo"),
]

OLD_SEARCH = """    @api.model
    def _name_search(self, name, domain=None, operator="ilike", limit=None, order=None):
        domain = ["|", ("name", operator, name), ("manager_note", operator, name)] + (domain or [])
        return self._search(domain, limit=limit, order=order)
"""
NEW_SEARCH = """    @api.model
    def _search_display_name(self, operator, value):
        domain = super()._search_display_name(operator, value)
        if value and operator in ("ilike", "like", "=", "=ilike", "=like"):
            domain = expression.OR([domain, [("manager_note", operator, value)]])
        return domain
"""


def _series(addons: Path) -> str:
    config = RunnerConfig(addons_paths=[addons], cache_dir=addons.parent / "probe", pg=PgParams.resolve(),
                          odoo_bin=Path(ODOO_BIN), odoo_python=ODOO_PYTHON)  # fmt: skip
    return asyncio.run(OdooRunner(config).odoo()).series


def test_the_agent_fixes_what_migrate_left(
    run_agent: RunAgent, model_server: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    addons = tmp_path / "addons"
    shutil.copytree(FIXTURE, addons / "mig_views")
    if _series(addons) != "18.0":
        pytest.skip("this case migrates 17.0 -> 18.0: ASSISTA_TEST_ODOO_BIN must be an Odoo 18")
    prefix = f"assista_migagent{secrets.token_hex(2)}_"
    monkeypatch.setenv("ASSISTA_DB_PREFIX", prefix)
    fix: dict[str, Any] = {
        "path": MODEL,
        "edits": [
            {"old_text": OLD_SEARCH, "new_text": NEW_SEARCH},
            {"old_text": "from odoo.exceptions import ValidationError\n",
             "new_text": "from odoo.exceptions import ValidationError\nfrom odoo.osv import expression\n"},
        ],
    }  # fmt: skip
    server = model_server(
        [
            {
                "tool_calls": [
                    call("m1", "migrate_module", {"module": "mig_views", "to_series": "18.0", "write": True})
                ]
            },
            {"text": "Migrated mig_views to 18.0."},
            {"tool_calls": [call("e1", "edit_file", fix)]},
            {"text": "Ported the name search to _search_display_name."},
        ]
    )
    flags = (
        "--mode",
        "yolo",
        "--odoo-bin",
        ODOO_BIN,
        *(("--odoo-python", ODOO_PYTHON) if ODOO_PYTHON else ()),
    )
    try:
        code, events, err = run_agent(server, addons, "migrate mig_views to 18.0", *flags)
    finally:
        join_spare_threads()
        pg = Pg(PgParams.resolve(), prefix=prefix)
        for name in pg.list_ours():  # the dependency template this run built, and any run left
            pg.drop(name)
    assert code == 0, err
    follow_up = [m for m in server.requests[2]["messages"] if m["role"] == "user"][-1]["content"]
    assert "test_name_search_finds_the_manager_note" in follow_up
    report = next(e for e in events if e["tool_name"] == "validation")["data"]
    assert report["passed"] is True and report["fix_rounds"] == 1
    assert "test_module:mig_views" in report["validated"]
    migrated = (addons / MODEL).read_text()
    assert "_search_display_name" in migrated and "self._has_cycle()" in migrated  # migrate's, then the fix

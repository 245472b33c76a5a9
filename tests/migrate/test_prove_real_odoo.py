"""Opt-in (real Odoo 18): ``migrate MODULE --to 18.0 --write --prove`` of one module of a 17.0
repository proves it alone, its sibling still at 17.0 out of the addons path.

    ASSISTA_TEST_ODOO_BIN=/path/to/odoo18/odoo-bin ASSISTA_TEST_ODOO_PYTHON=/path/to/venv/python \\
    PGHOST=... PGUSER=... PGPASSWORD=... .venv/bin/python -m pytest tests/migrate/test_prove_real_odoo.py

Before the proof's private addons path, Odoo 18 refused every install while the sibling was there
("Invalid version '17.0.1.0.0'"), though the migrated module proves green copied alone.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.runs import PgParams
from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import join_spare_threads

ODOO_BIN = os.environ.get("ASSISTA_TEST_ODOO_BIN", "")
ODOO_PYTHON = os.environ.get("ASSISTA_TEST_ODOO_PYTHON") or None

pytestmark = [
    pytest.mark.odoo,
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(not ODOO_BIN, reason="set ASSISTA_TEST_ODOO_BIN to run against a real Odoo"),
]

TEST = """from odoo.tests import TransactionCase


class TestStudy(TransactionCase):
    def test_partner(self):
        partner = self.env["res.partner"].create({"name": "Study"})
        self.assertEqual(partner.display_name, "Study")
"""


def _module(root: Path, name: str, test: bool) -> None:
    folder = root / name
    (folder / "tests").mkdir(parents=True)
    manifest = {"name": name, "version": "17.0.1.0.0", "license": "LGPL-3", "depends": ["base"]}
    (folder / "__manifest__.py").write_text(repr(manifest) + "\n")
    (folder / "__init__.py").write_text("")
    (folder / "tests/__init__.py").write_text("from . import test_study\n" if test else "")
    if test:
        (folder / "tests/test_study.py").write_text(TEST)


def test_one_module_of_a_17_repository_is_proved_on_18_without_its_sibling(
    isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    _module(repo, "prove_study", test=True)
    _module(repo, "prove_sibling", test=False)  # still 17.0: Odoo 18 reads its manifest if it is there
    prefix = f"assista_provealone{secrets.token_hex(2)}_"
    monkeypatch.setenv("ASSISTA_DB_PREFIX", prefix)
    flags = ["--odoo-bin", ODOO_BIN, *(["--odoo-python", ODOO_PYTHON] if ODOO_PYTHON else [])]
    argv = ["migrate", str(repo / "prove_study"), "--to", "18.0", "--write", "--prove", "--no-diff"]
    try:
        code = main([*argv, *flags, "--format", "json"])
    finally:
        join_spare_threads()
        pg = Pg(PgParams.resolve(), prefix=prefix)
        for name in pg.list_ours():  # the base template this run built, and any run left
            pg.drop(name)
    out = capsys.readouterr()
    if code == 2 and "the configured Odoo is" in out.err:
        pytest.skip("this case migrates 17.0 -> 18.0: ASSISTA_TEST_ODOO_BIN must be an Odoo 18")
    proof = json.loads(out.out)["modules"][0]["proof"]
    assert (proof["verdict"], proof["tests_run"], proof["tests_failed"]) == ("passed", 1, 0), proof
    assert code == 0
    assert "17.0.1.0.0" in (repo / "prove_sibling/__manifest__.py").read_text()

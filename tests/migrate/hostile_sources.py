"""A tiny Odoo source (release.py, one core module with views) and a module extending one of its
views, built in a test: the hostile inputs of the migrate tests are added to them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CORE_FORM = '<form><sheet><group name="main"><field name="name"/><field name="ref"/></group></sheet></form>'


def odoo_source(root: Path, major: int, form: str = CORE_FORM) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    views = root / "addons" / "base_app" / "views"
    views.mkdir(parents=True)
    (views.parent / "__manifest__.py").write_text("{'name': 'base_app', 'depends': []}\n")
    (views / "views.xml").write_text(
        '<odoo><record id="form" model="ir.ui.view"><field name="model">m</field>'
        f'<field name="arch" type="xml">{form}</field></record></odoo>\n'
    )
    return root


def extending_module(root: Path, specs: str, name: str = "mine") -> Path:
    """A 17.0 module whose view extends base_app.form with ``specs``."""
    folder = root / name
    (folder / "views").mkdir(parents=True)
    (folder / "__manifest__.py").write_text(
        f"{{'name': '{name}', 'version': '17.0.1.0.0', 'depends': ['base_app'], 'data': ['views/v.xml']}}\n"
    )
    (folder / "views" / "v.xml").write_text(
        '<odoo>\n    <record id="form_ext" model="ir.ui.view">\n'
        '        <field name="inherit_id" ref="base_app.form"/>\n'
        f'        <field name="arch" type="xml">\n{specs}\n        </field>\n    </record>\n</odoo>\n'
    )
    return folder


def migrate_cli(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """``assista-odoo migrate ...`` in a child process, failing the test past ``timeout``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update({"CI": "true", "ASSISTA_CACHE_DIR": str(cwd / "cache"), "ASSISTA_HOME": str(cwd / "home")})
    try:
        return subprocess.run(
            [sys.executable, "-m", "assista_mcp", "migrate", *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"assista-odoo migrate {' '.join(args)} took over {timeout} s")

"""18.0 -> 19.0: an Environment's attributes are read-only. Through the migrate CLI: the request's
context set by assignment becomes request.update_env(context=...); a record's env.context assigned
is an error finding, env.company a warning (raises once read), and a plain attribute named context
on something else is left alone."""

from __future__ import annotations

import json
from pathlib import Path

from assista_mcp.cli import main

CONTROLLER = """from odoo.http import request


def search(kw):
    context = dict(request.env.context, search=kw)
    request.env.context = context
    return context
"""

TEST = """from odoo.tests import TransactionCase


class TestLocale(TransactionCase):
    def test_company(self):
        self.user = self.env.user
        self.user.env.company = self.env.company
        self.env.context = {}
        self.wizard.context = {}
"""


def test_env_attributes_assigned(tmp_path: Path) -> None:
    folder = tmp_path / "env_mod"
    (folder / "tests").mkdir(parents=True)
    (folder / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['web']}\n")
    (folder / "__init__.py").write_text("from . import portal\n")
    (folder / "portal.py").write_text(CONTROLLER)
    (folder / "tests" / "test_locale.py").write_text(TEST)
    out = tmp_path / "report.json"
    main(["migrate", str(folder), "--to", "19.0", "--write", "--format", "json", "-o", str(out)])
    assert "    request.update_env(context=context)\n" in (folder / "portal.py").read_text()
    assert (folder / "tests" / "test_locale.py").read_text() == TEST
    report = json.loads(out.read_text())
    left = {
        (f["code"], str(f["path"]).rsplit("/", 1)[-1], f["line"], f["severity"])
        for f in _findings(report)
        if f["code"] == "read-only-env-attribute"
    }
    assert left == {
        ("read-only-env-attribute", "test_locale.py", 7, "warning"),
        ("read-only-env-attribute", "test_locale.py", 8, "error"),
    }


def _findings(node: object) -> list[dict[str, object]]:
    if isinstance(node, dict):
        own = [node] if "code" in node and "line" in node else []
        return own + [f for value in node.values() for f in _findings(value)]
    if isinstance(node, list):
        return [f for value in node for f in _findings(value)]
    return []

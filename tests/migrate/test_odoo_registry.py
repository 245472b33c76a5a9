"""18.0 -> 19.0: ``from odoo import registry`` fails on 19.0. Through the migrate CLI: a file that
only calls ``registry(dbname)`` imports Registry from odoo.modules.registry and calls it; a file
that also rebinds the name is left as it was, with an error finding at the import."""

from __future__ import annotations

import json
from pathlib import Path

from assista_mcp.cli import main

CALLS = """from odoo import api, models, registry


class Report(models.Model):
    _inherit = "res.partner"

    def _print(self):
        with registry(self.env.cr.dbname).cursor() as cr:
            return self.with_env(self.env(cr=cr)).registry
"""

ONLY = """from odoo import registry

DB = registry("x")
"""

REBOUND = """from odoo import models, registry


def open_db(name, registry=registry):
    return registry(name)
"""


def test_registry_becomes_registry_class(tmp_path: Path) -> None:
    folder = tmp_path / "registry_mod"
    folder.mkdir()
    (folder / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['base']}\n")
    (folder / "__init__.py").write_text("from . import calls, only, rebound\n")
    for name, text in (("calls", CALLS), ("only", ONLY), ("rebound", REBOUND)):
        (folder / f"{name}.py").write_text(text)
    out = tmp_path / "report.json"
    main(["migrate", str(folder), "--to", "19.0", "--write", "--format", "json", "-o", str(out)])
    calls = (folder / "calls.py").read_text()
    assert calls.startswith(
        "from odoo import api, models\nfrom odoo.modules.registry import Registry\n\n\nclass Report"
    )
    assert "with Registry(self.env.cr.dbname).cursor() as cr:" in calls
    assert "self.env(cr=cr)).registry\n" in calls  # an attribute, not the function
    assert (folder / "only.py").read_text() == (
        'from odoo.modules.registry import Registry\n\nDB = Registry("x")\n'
    )
    assert (folder / "rebound.py").read_text() == REBOUND
    report = json.loads(out.read_text())
    left = {(f["code"], str(f["path"]).rsplit("/", 1)[-1], f["line"]) for f in _findings(report)}
    assert ("removed-odoo-registry", "rebound.py", 1) in left
    assert not any(
        name in ("calls.py", "only.py") for code, name, _ in left if code == "removed-odoo-registry"
    )


def _findings(node: object) -> list[dict[str, object]]:
    if isinstance(node, dict):
        own = [node] if "code" in node and "line" in node else []
        return own + [f for value in node.values() for f in _findings(value)]
    if isinstance(node, list):
        return [f for value in node for f in _findings(value)]
    return []

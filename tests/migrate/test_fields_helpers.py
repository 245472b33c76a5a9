"""18.0 -> 19.0: odoo.fields lost its helpers. ``fields.first(records)`` becomes Odoo's own 19.0
``next(iter(records), records)`` and ``fields.date.today()`` ``fields.Date.today()``, through the
migrate CLI; an argument that would run twice, ``fields.datetime.now()`` (Datetime.now() drops
microseconds) and a ``fields`` that is not Odoo's stay as they were, with a finding."""

from __future__ import annotations

import json
from pathlib import Path

from assista_mcp.cli import main

CODE = """from odoo import fields, models


class Settlement(models.Model):
    _inherit = "res.partner"

    def _agent(self):
        today = fields.date.today()
        first = fields.first(self).child_ids
        child = fields.first(self.child_ids.sudo()).name
        return today, first, child, fields.first(self.child_ids).name, fields.datetime.now()
"""

OTHER = """from .my import fields


def pick(rows):
    return fields.first(rows), fields.date.today()
"""


def test_fields_helpers_become_odoo_19s_own(tmp_path: Path) -> None:
    folder = tmp_path / "helpers_mod"
    folder.mkdir()
    (folder / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['base']}\n")
    (folder / "__init__.py").write_text("from . import partner, other\n")
    (folder / "partner.py").write_text(CODE)
    (folder / "other.py").write_text(OTHER)
    out = tmp_path / "report.json"
    main(["migrate", str(folder), "--to", "19.0", "--write", "--format", "json", "-o", str(out)])
    code = (folder / "partner.py").read_text()
    assert "today = fields.Date.today()" in code
    assert "first = next(iter(self), self).child_ids" in code
    assert "fields.first(self.child_ids.sudo()).name" in code  # a call: it would run twice
    assert "next(iter(self.child_ids), self.child_ids).name" in code
    assert "fields.datetime.now()" in code
    assert (folder / "other.py").read_text() == OTHER  # not odoo.fields
    report = json.loads(out.read_text())
    assert "removed-fields-helpers" in json.dumps(report)
    left = {(f["code"], str(f["path"]).rsplit("/", 1)[-1], f["line"]) for f in _findings(report)}
    assert ("removed-python-name", "partner.py", 10) in left  # fields.first(self.child_ids.sudo())
    assert ("removed-python-name", "partner.py", 11) in left  # fields.datetime.now()
    assert not any(line in (8, 9) for _code, name, line in left if name == "partner.py")


def _findings(node: object) -> list[dict[str, object]]:
    if isinstance(node, dict):
        own = [node] if "code" in node and "line" in node else []
        return own + [f for value in node.values() for f in _findings(value)]
    if isinstance(node, list):
        return [f for value in node for f in _findings(value)]
    return []

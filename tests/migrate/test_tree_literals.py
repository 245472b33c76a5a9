"""17.0 -> 18.0: the 'tree' view type is 'list', in code and tests alike: a comparison of a view
type, a view type keyword, a views pair written as a list, through the migrate CLI; a 'tree'
that is not a view type stays."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.cli import main

CODE = """from odoo import models


class Base(models.AbstractModel):
    _inherit = "base"

    def get_view(self, view_id=None, view_type="form", **options):
        result = super().get_view(view_id, view_type, **options)
        if view_type == "tree" or view_type in ["tree", "form"]:
            return result
        for sub_view_type in ["tree", "form"]:
            result[sub_view_type] = 1
        return result

    def open(self):
        return {"views": [[False, "tree"]], "kind": "tree"}
"""

TEST = """from odoo.tests import TransactionCase


class TestViews(TransactionCase):
    def test_views(self):
        arch = self.env["res.partner"].get_view(view_type="tree")["arch"]
        views = self.env["res.partner"].get_views([(False, "tree")])
        self.assertTrue(arch and views)
"""


def test_tree_view_types_in_code_and_tests(tmp_path: Path) -> None:
    folder = tmp_path / "views_mod"
    (folder / "tests").mkdir(parents=True)
    (folder / "__manifest__.py").write_text("{'version': '17.0.1.0.0', 'depends': ['base']}\n")
    (folder / "__init__.py").write_text("from . import base\n")
    (folder / "base.py").write_text(CODE)
    (folder / "tests" / "test_views.py").write_text(TEST)
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    code = (folder / "base.py").read_text()
    assert 'if view_type == "list" or view_type in ["list", "form"]:' in code
    assert 'for sub_view_type in ["list", "form"]:' in code
    assert '{"views": [[False, "list"]], "kind": "tree"}' in code  # "kind" is no view type
    test = (folder / "tests" / "test_views.py").read_text()
    assert 'get_view(view_type="list")' in test and 'get_views([(False, "list")])' in test

"""A framework name the step took out of a package and left in the submodule that gave it on both
series is imported from that submodule (17.0 -> 18.0: odoo.tools' column_exists, read in the two
bundled name lists); a name with no such home keeps its error finding."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.migrate import migrate

HOOKS = """from odoo.tools import column_exists, float_round, submap as keep_map

def pre_init_hook(env):
    if column_exists(env.cr, "x", "y"):
        pass
"""


def test_the_import_names_the_submodule(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "__manifest__.py").write_text("{'version': '17.0.1.0.0', 'depends': ['base']}\n")
    (folder / "__init__.py").write_text("from .hooks import pre_init_hook\n")
    (folder / "hooks.py").write_text(HOOKS)
    [module] = migrate([folder], "18.0", write=True).modules
    text = (folder / "hooks.py").read_text()
    assert text.splitlines()[0] == "from odoo.tools import float_round"  # still given there
    assert "from odoo.tools.sql import column_exists\n" in text
    assert "from odoo.tools.misc import submap as keep_map\n" in text  # its alias kept
    assert module.rules_applied.get("moved-python-name") == 2
    assert not [f for f in module.findings if f.severity == "error"]

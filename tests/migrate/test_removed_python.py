"""Framework names a series removed (odoo.tools, odoo.osv, odoo.fields, odoo.models, odoo.api,
odoo.http), read from each series' source into odoo_tools/series/python_names, and the migrate
finding at the line that imports or reads one (fixtures/migrate_removed/rm_imports)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.migrate import migrate
from odoo_tools.series import Series, framework_names, gone_by, removed_framework_names

from .conftest import snapshot

REPO = Path(__file__).resolve().parents[2]
MODULE = REPO / "fixtures" / "migrate_removed" / "rm_imports"


def test_what_18_removed_from_the_17_framework() -> None:
    removed = removed_framework_names("17.0", "18.0")
    assert removed.removed("odoo.tools", "submap")  # still in odoo.tools.misc, out of its __all__
    assert removed.removed("odoo.tools", "email_split_and_format")
    assert not removed.removed("odoo.tools", "float_round")
    assert not removed.removed("odoo.tools.misc", "submap")
    assert "odoo.tools.num2words_patch" in removed.modules
    assert "odoo.tools.misc" in removed.still_in("submap")
    assert gone_by("18.0").removed("odoo.tools", "submap")  # what the static checks judge 18.0 by
    assert gone_by("19.0").removed("odoo.tools", "submap")
    assert not gone_by("18.0").removed("odoo.tools", "float_round")
    assert gone_by("16.0").names == {}  # no older list
    assert framework_names("12.0") is None
    assert removed_framework_names("12.0", "13.0").names == {}


def test_the_generator_reads_star_imports_all_and_on_demand_modules(tmp_path: Path) -> None:
    """scripts/core_python_names.py on a tiny source: ``from .x import *`` honours ``__all__``, a
    package lists its submodules, names only bound for type checkers are not there, what a module
    imports from outside Odoo is importable from it too, a module ``__getattr__`` makes the module
    open (nothing claimed)."""
    tools = tmp_path / "src" / "odoo" / "tools"
    tools.mkdir(parents=True)
    (tools / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nfrom .misc import *\nfrom . import lazy\nimport os\n"
        "if TYPE_CHECKING:\n    from .misc import hidden\n"
    )
    (tools / "misc.py").write_text(
        "__all__ = ['shown']\nimport re\n\ndef shown():\n    pass\n\ndef hidden():\n    pass\n\nLIMIT = 3\n"
    )
    (tools / "lazy.py").write_text("def __getattr__(name):\n    raise AttributeError(name)\n")
    script = REPO / "scripts" / "core_python_names.py"
    subprocess.run(
        [sys.executable, str(script), str(tmp_path / "src"), "0.1", str(tmp_path / "out")],
        check=True,
        capture_output=True,
    )
    data = json.loads((tmp_path / "out" / "0.1.json").read_text())
    assert data["modules"] == {
        "odoo.tools": ["TYPE_CHECKING", "lazy", "misc", "os", "shown"],
        "odoo.tools.misc": ["LIMIT", "hidden", "re", "shown"],
    }
    assert data["open"] == ["odoo.tools.lazy"]


@pytest.fixture
def module(tmp_path: Path) -> Path:
    target = tmp_path / "rm_imports"
    shutil.copytree(MODULE, target)
    return target


def test_an_import_or_read_of_a_removed_name_is_an_error_at_its_line(module: Path) -> None:
    before = snapshot(module)
    report = migrate([module], "18.0")
    assert snapshot(module) == before  # a dry run; nothing is rewritten anyway
    found = [
        (f.path, f.line, f.severity, f.message.split(" was removed")[0])
        for f in report.modules[0].steps[0].findings
        if f.code == "removed-python-name"
    ]
    # submap, gone from odoo.tools and still in odoo.tools.misc that gave it on 17.0 too, is imported
    # from there (moved-python-name: one line more above the others)
    assert report.modules[0].rules_applied["moved-python-name"] == 1
    assert found == [
        ("rm_imports/models.py", 5, "error", "The module odoo.tools.num2words_patch"),
        ("rm_imports/models.py", 12, "error", "odoo.tools.email_split_and_format"),
    ]
    hints = [f.hint for f in report.modules[0].steps[0].findings if f.code == "removed-python-name"]
    assert hints[1].startswith("18.0 still gives email_split_and_format from")


def test_cli_reports_them_and_exits_1(
    module: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    assert main(["migrate", str(module), "--to", "18.0", "--no-diff"]) == 1
    out = capsys.readouterr().out
    assert (
        "rm_imports/models.py:12: [removed-python-name] odoo.tools.email_split_and_format was removed from "
        "Odoo in 18.0" in out
    )


def _addon_source(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"odoo/addons/base/__manifest__.py": "{}", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_an_import_of_a_name_a_core_addon_lost_is_an_error(tmp_path: Path) -> None:
    """16.0's ir_ui_view.transfer_modifiers_to_node is gone in 17.0 (OCA server_action_mass_edit
    failed its install on it), purchase/models/purchase.py too; read in both sources."""
    old = _addon_source(
        tmp_path / "odoo16",
        {
            "odoo/addons/base/models/ir_ui_view.py": "def transfer_modifiers_to_node(m, n):\n    pass\n"
            "def keep():\n    pass\n",
            "odoo/addons/base/models/__init__.py": "from . import ir_ui_view\n",
            "addons/purchase/__manifest__.py": "{}",
            "addons/purchase/models/purchase.py": "class PurchaseOrder:\n    pass\n",
        },
    )
    new = _addon_source(
        tmp_path / "odoo17",
        {
            "odoo/addons/base/models/ir_ui_view.py": "if True:\n    def keep():\n        pass\n",
            "odoo/addons/base/models/__init__.py": "from . import ir_ui_view\n",
            "addons/purchase/__manifest__.py": "{}",
            "addons/purchase/models/purchase_order.py": "class PurchaseOrder:\n    pass\n",
        },
    )
    module = tmp_path / "m"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['purchase']}\n")
    (module / "a.py").write_text(
        "from odoo.addons.base.models.ir_ui_view import keep, transfer_modifiers_to_node\n"
        "from odoo.addons.purchase.models.purchase import PurchaseOrder\n"
        "from odoo.addons.base.models import ir_ui_view\n"
        "from odoo.addons.other_repo.models.x import anything\n"
        "\n"
        "\n"
        "def hide(node):\n"
        "    return transfer_modifiers_to_node({'invisible': True}, node)\n"
    )  # used: the modifiers rule keeps the import (it drops the name only when nothing uses it)
    [migrated] = migrate([module], "17.0", odoo_sources={Series(16): old, Series(17): new}).modules
    found = [(f.line, f.severity, f.message) for f in migrated.findings if f.code == "removed-core-import"]
    assert found == [
        (
            1,
            "error",
            "transfer_modifiers_to_node was removed from odoo.addons.base.models.ir_ui_view in Odoo 17.0: "
            "this import fails when Odoo loads the file.",
        ),
        (
            2,
            "error",
            "odoo.addons.purchase.models.purchase is gone in Odoo 17.0: this import fails when Odoo "
            "loads the file.",
        ),
    ]
    [alone] = migrate(
        [module], "17.0", odoo_sources={Series(17): new}
    ).modules  # the old source says what was core
    assert not [f for f in alone.findings if f.code == "removed-core-import"]


def test_an_import_whose_failure_the_module_catches_is_not_said(tmp_path: Path) -> None:
    """``try: from ...ir_ui_view import transfer_modifiers_to_node`` with an ``except ImportError``
    (or a tuple holding it, a bare except) is the module's fallback for the series that lost it:
    loading the file does not fail. An except of another error, or an import in a function the
    try only defines, still fails."""
    removed = {"odoo/addons/base/models/ir_ui_view.py": "def transfer_modifiers_to_node(m, n):\n    pass\n"}
    old = _addon_source(tmp_path / "odoo16", removed)
    new = _addon_source(
        tmp_path / "odoo17", {"odoo/addons/base/models/ir_ui_view.py": "def keep():\n    pass\n"}
    )
    module = tmp_path / "m"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['base']}\n")
    name = "from odoo.addons.base.models.ir_ui_view import transfer_modifiers_to_node as t"
    (module / "a.py").write_text(
        f"try:\n    {name}\nexcept ImportError:\n    t = None\n"  # 1-4
        f"try:\n    {name}\nexcept (ValueError, ModuleNotFoundError):\n    t = None\n"  # 5-8
        f"try:\n    {name}\nexcept:\n    t = None\n"  # 9-12
        f"try:\n    {name}\nexcept ValueError:\n    t = None\n"  # 13-16: still fails
        f"try:\n    def f():\n        {name}\nexcept ImportError:\n    pass\n"  # 17-21: fails in f()
    )
    [migrated] = migrate([module], "17.0", odoo_sources={Series(16): old, Series(17): new}).modules
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "removed-core-import"]
    assert found == [(14, "error"), (19, "error")]

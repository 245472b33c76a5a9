"""scripts/core_modules.py rebuilds a bundled core module list from an Odoo source, byte for byte."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "odoo_tools" / "series" / "core_modules" / "18.0.json"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _fake_source(root: Path, listed: dict[str, dict[str, object]]) -> None:
    """A tiny Odoo 18.0 source holding what the committed list says, plus what the recipe drops."""
    _write(root / "odoo" / "release.py", "FINAL = 'final'\nversion_info = (18, 0, 0, FINAL, 0, '')\n")
    owned: dict[str, list[str]] = {}
    for model, module in listed["models"].items():
        owned.setdefault(str(module), []).append(str(model))
    for name, depends in listed["depends"].items():
        folder = root / ("odoo/addons" if name == "base" else "addons") / name
        manifest: dict[str, object] = {"name": name, "depends": depends}
        if name in listed["auto_install"]:
            manifest["auto_install"] = listed["auto_install"][name]
        _write(folder / "__manifest__.py", repr(manifest))
        classes = "".join(
            f"\n\nclass M{i}(models.Model):\n    _name = {model!r}\n"
            for i, model in enumerate(owned.get(name, []))
        )
        _write(folder / "models.py", "from odoo import models" + classes)
    # Left out by the recipe: a non-LGPL module and one depending on it, a test model, a model
    # redefined by a module that depends on its home, a chained ``_name = _description = ...``.
    _write(
        root / "addons" / "proprietary_zz" / "__manifest__.py",
        repr({"depends": ["base"], "license": "OEEL-1"}),
    )
    _write(root / "addons" / "on_proprietary_zz" / "__manifest__.py", repr({"depends": ["proprietary_zz"]}))
    _write(
        root / "addons" / "web" / "extra.py",
        "class T(models.Model):\n    _name = 'test.only.thing'\n\n\n"
        "class P(models.Model):\n    _name = 'res.partner'\n\n\n"
        "class C(models.Model):\n    _name = _description = 'chained.zz'\n",
    )


def test_regenerating_the_committed_18_list_from_a_source_gives_the_same_bytes(tmp_path: Path) -> None:
    listed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    source = tmp_path / "odoo18"
    _fake_source(source, listed)
    output = tmp_path / "18.0.json"
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "core_modules.py"),
            "--odoo-path",
            str(source),
            "--output",
            str(output),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "595 modules, 993 models" in result.stdout
    assert output.read_bytes() == COMMITTED.read_bytes()

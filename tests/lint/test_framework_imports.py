"""Static check removed-python-name: a framework name the project's series no longer gives."""

from __future__ import annotations

from pathlib import Path

from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import _module, _static

CODE = """from odoo import fields, models, tools
from odoo.tools import float_round, submap
from odoo.tools.misc import submap as misc_submap


class P(models.Model):
    _inherit = "res.partner"

    def _parts(self):
        return tools.email_split_and_format(self.email), float_round(1.0, 2), misc_submap({}, [])
"""


def _found(root: Path, series: str) -> list[tuple[str, int | None, str]]:
    return sorted(
        (f.path, f.line, f.severity) for f in _static(root, "imp", series) if f.code == "removed-python-name"
    )


def test_a_name_the_series_no_longer_gives_is_an_error_at_its_line(tmp_path: Path) -> None:
    _module(tmp_path, "imp", ["base"], [], {"models.py": CODE})
    assert _found(tmp_path, "17.0") == []  # 17.0 still has both
    manifest = tmp_path / "imp" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.", "18.0."))
    assert _found(tmp_path, "18.0") == [("imp/models.py", 2, "error"), ("imp/models.py", 10, "error")]
    messages = [f.message for f in _static(tmp_path, "imp", "18.0") if f.code == "removed-python-name"]
    assert messages[0].startswith(
        "odoo.tools.submap is not in Odoo 18.0 (older series had it): importing it fails"
    )
    assert "odoo.tools.email_split_and_format is not in Odoo 18.0" in messages[1]
    assert "this line fails when it runs" in messages[1]


def test_cli_check_reports_it(tmp_path: Path) -> None:
    root = tmp_path / "addons"
    _module(root, "imp", ["base"], [], {"models.py": CODE})
    manifest = root / "imp" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.", "18.0."))
    args = ["check", "--checks", "static", "--format", "text", "--addons-path", str(root)]
    result = run_cli(args, tmp_path, tmp_path / "cache")
    assert result.returncode == 1, result.stderr
    assert "imp/models.py:2" in result.stdout and "removed-python-name" in result.stdout


GUARDED = """try:
    from odoo.tools import submap
except ImportError:
    submap = None
try:
    from odoo.addons.base.models.ir_ui_view import transfer_node_to_modifiers
except (ValueError, ModuleNotFoundError):
    transfer_node_to_modifiers = None
try:
    import odoo.tools.num2words_patch
except:
    pass
try:
    from odoo.tools import submap as again
except ValueError:
    again = None
"""


def test_an_import_whose_failure_the_module_catches_is_no_error(tmp_path: Path) -> None:
    """A try whose except catches the ImportError is the module's fallback for a series without
    the name: loading the file does not fail, so 'importing it fails' would be false. An except of
    another error does not guard it (line 14)."""
    _module(tmp_path, "imp", ["base"], [], {"models.py": GUARDED})
    manifest = tmp_path / "imp" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.", "18.0."))
    errors = sorted((f.code, f.line) for f in _static(tmp_path, "imp", "18.0") if f.severity == "error")
    assert errors == [("removed-python-name", 14)]

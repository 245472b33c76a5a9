"""migrate's face takes the Odoo sources by ``Series``; the settings give them so, and a bare major
(the old face) is refused at once instead of silently reading no source."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.config.settings import Settings
from odoo_tools.migrate import migrate
from odoo_tools.series import Series


def _source(root: Path, major: int) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    return root


def test_the_settings_give_each_source_under_its_series(tmp_path: Path) -> None:
    new, old = _source(tmp_path / "odoo18", 18), _source(tmp_path / "odoo17", 17)
    settings = Settings(addons_paths=[tmp_path], odoo_path=new, from_odoo_path=[old])
    assert settings.migration_sources() == {Series(18): new, Series(17): old}


def test_a_bare_major_is_refused(tmp_path: Path) -> None:
    module = tmp_path / "mine"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0'}\n")
    with pytest.raises(TypeError, match=r"keyed by Series .*not 18"):
        migrate([module], "18.0", odoo_sources={18: _source(tmp_path / "odoo18", 18)})  # type: ignore[dict-item]
    assert (module / "__manifest__.py").read_text() == "{'version': '17.0.1.0.0'}\n"

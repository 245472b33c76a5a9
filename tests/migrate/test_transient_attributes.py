"""Class attributes 19.0 kept for transient models only (read from the two sources): a regular
model's read of 18.0's BaseModel._transient_max_hours becomes the value BaseModel computed
(custom 18.0 base_temporary_action's autovacuum failed on 19.0 with "'ir.actions.actions' object
has no attribute '_transient_max_hours'")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.series import Series

OLD = """class BaseModel:
    _transient_max_count = lazy_classproperty(lambda _: config.get('osv_memory_count_limit'))
    _transient_max_hours = lazy_classproperty(lambda _: config.get('transient_age_limit'))
    _auto = False
"""
NEW_BASE = "class BaseModel:\n    _auto = False\n"
NEW_TRANSIENT = """class TransientModel(Model):
    _transient_max_count = lazy_classproperty(lambda _: int(config.get('osv_memory_count_limit')))
    _transient_max_hours = lazy_classproperty(lambda _: float(config.get('transient_age_limit')))
"""


def _source(root: Path, major: int, files: dict[str, str]) -> Path:
    (root / "odoo" / "orm").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    for rel, text in files.items():
        (root / rel).write_text(text)
    (root / "addons").mkdir()
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[Series, Path]:
    return {
        Series(18): _source(tmp_path / "odoo18", 18, {"odoo/models.py": OLD}),
        Series(19): _source(
            tmp_path / "odoo19",
            19,
            {"odoo/orm/models.py": NEW_BASE, "odoo/orm/models_transient.py": NEW_TRANSIENT},
        ),
    }


CODE = """from dateutil.relativedelta import relativedelta

from odoo import api, fields, models


class IrActionsActions(models.Model):
    _inherit = "ir.actions.actions"

    @api.autovacuum
    def _gc_temporary_actions(self):
        limit = fields.Datetime.now() - relativedelta(hours=self._transient_max_hours)
        return self.search([("create_date", "<", limit)])


class Wizard(models.TransientModel):
    _name = "x.wizard"

    def _age(self):
        return self._transient_max_hours
"""


def _module(root: Path, code: str) -> Path:
    module = root / "mine"
    module.mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['base']}\n")
    (module / "actions.py").write_text(code)
    return module


def test_a_regular_model_reads_the_value_base_model_gave(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(tmp_path, CODE)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "actions.py").read_text() == CODE.replace(
        "from odoo import api, fields, models\n",
        "from odoo import api, fields, models\nfrom odoo.tools import config\n",
    ).replace(
        "relativedelta(hours=self._transient_max_hours)",
        'relativedelta(hours=config.get("transient_age_limit"))',
    )
    assert migrated.rules_applied["moved-transient-attribute"] == 1


def test_a_module_that_sets_it_keeps_its_reads(tmp_path: Path, sources: dict[Series, Path]) -> None:
    """The model setting it reads its own value on 19.0 too: a warning (where the model does not
    set it the read fails); a file whose config is another object: an error, not rewritten."""
    code = CODE.replace(
        '    _inherit = "ir.actions.actions"\n',
        '    _inherit = "ir.actions.actions"\n    _transient_max_hours = 2\n',
    )
    module = _module(tmp_path, code)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "actions.py").read_text() == code
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "moved-transient-attribute"]
    assert found == [(12, "warning")]
    other = CODE.replace(
        "from odoo import api, fields, models\n", "from odoo import api, fields, models\n\nconfig = {}\n"
    )
    shutil.rmtree(module)
    module = _module(tmp_path, other)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "actions.py").read_text() == other
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "moved-transient-attribute"]
    assert found == [(13, "error")]


def test_nothing_moves_when_the_new_base_model_keeps_it(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(tmp_path, CODE)
    kept = {"odoo/orm/models.py": OLD, "odoo/orm/models_transient.py": NEW_TRANSIENT}
    same = {Series(18): sources[Series(18)], Series(19): _source(tmp_path / "same19", 19, kept)}
    migrate([module], "19.0", odoo_sources=same, write=True)
    assert (module / "actions.py").read_text() == CODE

"""An Odoo warning's model or field is placed where the code index says it is defined: the log
reader and the index share one reading of a model class, so they cannot drift apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from odoo_tools.index import parse_python
from odoo_tools.odoo_log._definitions import Definition, find_field, find_model
from tests.odoo.variants import REPO

EXTRA = """from markupsafe import Markup

from odoo import fields, models
from odoo.addons.component.core import Component


class BookListener(Component):
    _name = "library.book.listener"
    _inherit = "base.event.listener"


class LibraryBook(models.Model):
    _inherit = "library.book"

    BANNER = Markup("<b>new</b>")
    isbn13 = fields.Char()
"""


def test_fields_and_models_are_found_where_the_index_puts_them(tmp_path: Path) -> None:
    module = tmp_path / "library_base"
    shutil.copytree(REPO / "fixtures" / "addons" / "library_base", module)
    (module / "models" / "extra.py").write_text(EXTRA, encoding="utf-8")
    indexed = 0
    for path in sorted(module.rglob("*.py")):
        rel = path.relative_to(module).as_posix()
        for model in parse_python(path.read_bytes(), rel, "library_base").models:
            for field in model.fields:
                found = find_field(module, model.model, field.name)
                assert found is not None and found.line == field.line, (model.model, field.name)
                indexed += 1
    assert indexed > 5
    assert find_field(module, "library.book", "isbn13") == Definition("models/extra.py", 16)
    # What the index does not count as a model or a field is not one for the log either: a
    # connector Component is no ORM model, and a class attribute built by a call is no field.
    assert find_model(module, "library.book.listener") is None
    assert find_field(module, "library.book", "BANNER") is None
    assert find_model(module, "library.book") == Definition("models/library_book.py", 7)

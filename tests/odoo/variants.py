"""Broken copies of the example addon ``library_base``: one edit each, one kind of Odoo failure each.

The recorded logs in ``fixtures/odoo_logs/<variant>.log`` came from installing exactly these copies
into a real Odoo 18; the stand-in odoo-bin and the opt-in real-Odoo tests use them too.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from odoo_tools.series import series_facts

REPO = Path(__file__).resolve().parents[2]
LIBRARY_BASE = REPO / "fixtures" / "addons" / "library_base"
SHELF_MODEL = (
    'from odoo import fields, models\n\n\nclass LibraryShelf(models.Model):\n    _name = "library.shelf"\n'
    '    _description = "Shelf"\n\n    name = fields.Char()\n'
)

# variant -> list of (file, old text, new text)
EDITS: dict[str, list[tuple[str, str, str]]] = {
    "good": [],
    "xml_syntax": [("views/library_book_views.xml", "</group>", "</grup>")],
    "access_model": [
        (
            "security/ir.model.access.csv",
            "model_library_book,group_library_user",
            "model_library_bok,group_library_user",
        )
    ],
    "access_column": [("security/ir.model.access.csv", "perm_write", "perm_wrte")],
    "missing_file": [
        (
            "__manifest__.py",
            '"views/library_menus.xml",',
            '"views/library_menus.xml",\n        "views/missing_file.xml",',
        )
    ],
    "external_dep": [
        (
            "__manifest__.py",
            '"installable": True,',
            '"external_dependencies": {"python": ["assista_no_such_package"]},\n    "installable": True,',
        )
    ],
    "import_error": [
        (
            "models/__init__.py",
            "from . import library_book",
            "from . import library_book\nfrom . import library_author",
        )
    ],
    "syntax_error": [("models/library_book.py", "pages = fields.Integer()", "pages = fields.Integer(")],
    "xml_ref": [
        ("views/library_menus.xml", 'parent="library_menu_root"', 'parent="library_menu_does_not_exist"')
    ],
    "missing_dep": [
        ("__manifest__.py", '"depends": ["base"]', '"depends": ["base", "library_missing_dependency"]')
    ],
    "bad_view": [
        (
            "views/library_book_views.xml",
            '<field name="pages" />',
            '<field name="pages" />\n                        <field name="does_not_exist" />',
        )
    ],
    "sql_constraint": [
        (
            "data/library_data.xml",
            "    </record>\n</odoo>",
            '    </record>\n    <record id="book_odoo_basics_again" model="library.book">\n'
            '        <field name="name">Odoo Basics, again</field>\n'
            '        <field name="isbn">978-0-00-000001-1</field>\n    </record>\n</odoo>',
        )
    ],
    "test_fail": [
        (
            "tests/test_library_book.py",
            "self.assertEqual(book.author_count, 1)",
            "self.assertEqual(book.author_count, 2, 'deliberate')",
        )
    ],
    "test_error": [
        (
            "tests/test_library_book.py",
            "self.assertEqual(book.author_count, 1)",
            "raise ValueError('deliberate error')",
        )
    ],
    "deprecation": [
        ("models/library_book.py", "pages = fields.Integer(", "pages = fields.Integer(group_operator='sum', ")
    ],
    "no_access": [
        (
            "models/__init__.py",
            "from . import library_book",
            "from . import library_book\nfrom . import library_shelf",
        )
    ],
}
# The stand-in cannot run real assertions: its convention is that ``self.fail(`` fails a test.
STUB_EDITS: dict[str, list[tuple[str, str, str]]] = {
    "test_fail": [
        ("tests/test_library_book.py", "self.assertEqual(book.author_count, 1)", "self.fail('deliberate')")
    ],
}


# Series adaptations, applied before the variant's edit: the addon is written for 18.0. Each keeps
# every line where it was, so the expected lines hold on every series.
_OLDER_THAN_18 = [
    ("models/library_book.py", "from odoo import api,", "from odoo import _, api,"),
    ("models/library_book.py", "self.env._(", "_("),
    ("views/library_book_views.xml", "<list>", "<tree>"),
    ("views/library_book_views.xml", "</list>", "</tree>"),
    ("views/library_book_views.xml", '"view_mode">list,form', '"view_mode">tree,form'),
]
SERIES_EDITS: dict[str, list[tuple[str, str, str]]] = {
    "16.0": [
        *_OLDER_THAN_18,
        (
            "views/library_book_views.xml",
            "invisible=\"state != 'draft'\"",
            "attrs=\"{'invisible': [('state', '!=', 'draft')]}\"",
        ),
    ],
    "17.0": _OLDER_THAN_18,
    "18.0": [],
    "19.0": [
        # res.groups lost category_id (privileges replace it); _sql_constraints is ignored from 19
        (
            "security/library_security.xml",
            '<field name="category_id" ref="module_category_library" />',
            '<field name="comment">Lends books</field>',
        ),
        ("models/library_book.py", "_sql_constraints = [", "_isbn_unique = models.Constraint("),
        (
            "models/library_book.py",
            '("isbn_unique", "unique(isbn)", "Two books cannot share an ISBN."),',
            '"unique(isbn)", "Two books cannot share an ISBN.",',
        ),
        ("models/library_book.py", "    ]\n\n    @api.depends", "    )\n\n    @api.depends"),
    ],
}
SERIES_EDITS["20.0"] = SERIES_EDITS["19.0"]  # plus the access file in ir.access's form (grant_access)


def make_variant(root: Path, variant: str, *, for_stub: bool = False, series: str = "18.0") -> Path:
    """Write ``root/library_base`` as the named broken copy for an Odoo series; returns the module
    directory."""
    target = root / "library_base"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(LIBRARY_BASE, target)
    edits = STUB_EDITS.get(variant, EDITS[variant]) if for_stub else EDITS[variant]
    manifest = target / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace('"18.0.1.0.0"', f'"{series}.1.0.0"'), encoding="utf-8")
    for rel, old, new in [*SERIES_EDITS.get(series, []), *edits]:
        path = target / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{variant}: {old!r} not in {rel}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if variant == "no_access":
        (target / "models" / "library_shelf.py").write_text(SHELF_MODEL, encoding="utf-8")
    grant_access(target, series)
    return target


def grant_access(module: Path, series: str) -> None:
    """On a series that grants access with ir.access (20.0), the module's ir.model.access.csv
    rewritten as Odoo's converter (upgrade_code 19.4-00-ir-access) writes it, same lines."""
    access = series_facts(series).access
    old = module / "security" / "ir.model.access.csv"
    if access.model != "ir.access" or not old.is_file():
        return
    rows = list(csv.DictReader(io.StringIO(old.read_text(encoding="utf-8"))))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "model_id:id", "group_id/id", "operation", "domain"])
    for row in rows:
        letters = "".join(
            letter
            for letter, perm in (
                ("c", "perm_create"),
                ("r", "perm_read"),
                ("u", "perm_write"),
                ("d", "perm_unlink"),
            )
            if row.get(perm, "0").strip() == "1"
        )
        writer.writerow([row["id"], row["name"], row["model_id:id"], row["group_id:id"], letters, ""])
    (module / "security" / "ir.access.csv").write_text(out.getvalue(), encoding="utf-8")
    old.unlink()
    manifest = module / "__manifest__.py"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("security/ir.model.access.csv", access.csv_file), encoding="utf-8")


def copy_loan(root: Path, series: str) -> Path:
    """``fixtures/addons/library_loan`` into ``root``, its list view written for ``series``."""
    target = root / "library_loan"
    shutil.copytree(REPO / "fixtures" / "addons" / "library_loan", target)
    manifest = target / "__manifest__.py"  # 17 and 18 refuse another series' version (adapt_version)
    manifest.write_text(manifest.read_text().replace('"18.0.1.0.0"', f'"{series}.1.0.0"'), encoding="utf-8")
    views = target / "views" / "library_loan_views.xml"
    text = views.read_text(encoding="utf-8")
    if series in ("16.0", "17.0"):
        text = (
            text.replace("<list ", "<tree ")
            .replace("</list>", "</tree>")
            .replace(">list,form<", ">tree,form<")
        )
    if series == "16.0":
        text = text.replace('column_invisible="True"', 'invisible="1"')
    views.write_text(text, encoding="utf-8")
    grant_access(target, series)
    return target

"""False positives of the static checks seen on real repositories (OCA sale-workflow, server-tools,
custom Odoo 18 addons), each reproduced by a small hand-written module."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.lint._dedupe import drop_duplicates
from tests.lint.test_static_checks import XML_HEAD, _module, _static

MODEL = "from odoo import models\n\n\nclass Thing(models.Model):\n    _name = 'x.thing'\n"


def _codes(findings: list[Finding], code: str) -> list[tuple[str, int | None]]:
    return sorted((f.path, f.line) for f in findings if f.code == code)


def test_access_rule_given_as_xml_record_counts(tmp_path: Path) -> None:
    xml = (
        XML_HEAD
        + '<odoo>\n<record id="access_thing" model="ir.model.access">\n'
        + '  <field name="name">thing</field>\n  <field name="model_id" ref="model_x_thing"/>\n'
        + '  <field name="perm_read" eval="1"/>\n</record>\n</odoo>\n'
    )
    model = MODEL + "    _description = 'Thing'\n"
    _module(
        tmp_path, "x", ["base"], ["security/access.xml"], {"models.py": model, "security/access.xml": xml}
    )
    assert _codes(_static(tmp_path, "x"), "missing-access-rule") == []


def test_test_models_registered_false_and_abstract_need_no_access_rule(tmp_path: Path) -> None:
    files = {
        "tests/models.py": MODEL + "    _description = 'Test only'\n",
        "models/base_class.py": MODEL.replace("x.thing", "x.base")
        + "    _description = 'Base'\n    _register = False\n",
        "models/mixin.py": MODEL.replace("x.thing", "x.mixin")
        + "    _description = 'Mixin'\n    _abstract = True\n",
        "models/abstract.py": MODEL.replace("models.Model", "models.AbstractModel").replace(
            "x.thing", "x.abs"
        )
        + "    _description = 'Abstract'\n",
        "models/real.py": MODEL.replace("x.thing", "x.real") + "    _description = 'Real'\n",
    }
    _module(tmp_path, "x", ["base"], [], files)
    assert _codes(_static(tmp_path, "x"), "missing-access-rule") == [("x/models/real.py", 4)]


def test_description_from_docstring_or_any_expression_counts(tmp_path: Path) -> None:
    files = {
        "models/doc.py": MODEL.replace("    _name", '    """A thing."""\n\n    _name')
        + "    _description = __doc__\n",
        "models/call.py": MODEL.replace("x.thing", "x.other") + "    _description = _('Other')\n",
        "models/none.py": MODEL.replace("x.thing", "x.bare"),
    }
    _module(tmp_path, "x", ["base"], [], files)
    assert _codes(_static(tmp_path, "x"), "model-without-description") == [("x/models/none.py", 4)]


def test_data_root_file_is_indexed_like_odoo_root(tmp_path: Path) -> None:
    xml = (
        XML_HEAD
        + '<data noupdate="1">\n<record id="g" model="res.groups"><field name="name">G</field></record>\n'
        + '<record id="u" model="res.users"><field name="groups_id" eval="[(4, ref(\'g\'))]"/></record>\n'
        + "</data>\n"
    )
    _module(tmp_path, "x", ["base"], ["data/data.xml"], {"data/data.xml": xml})
    found = _static(tmp_path, "x")
    assert not [f for f in found if f.code.startswith("xml-id")], found


def test_module_without_base_in_depends_still_sees_base(tmp_path: Path) -> None:
    xml = XML_HEAD + '<odoo>\n<menuitem id="m" parent="base.menu_custom"/>\n</odoo>\n'
    _module(tmp_path, "other", [], [], {})
    _module(tmp_path, "x", ["other"], ["views/menu.xml"], {"views/menu.xml": xml})
    _module(tmp_path, "y", [], ["views/menu.xml"], {"views/menu.xml": xml})
    for name in ("x", "y"):
        found = _static(tmp_path, name)
        assert not [f for f in found if f.code == "xml-id-not-in-dependencies"], found


def test_noupdate_redeclaration_is_not_a_duplicate(tmp_path: Path) -> None:
    xml = (
        XML_HEAD
        + '<odoo>\n<record id="p" model="ir.config_parameter"><field name="key">k</field></record>\n'
        + '<data noupdate="1">\n'
        + '<record id="p" model="ir.config_parameter"><field name="value">v</field></record>\n'
        + '</data>\n<record id="p" model="ir.config_parameter"><field name="key">k2</field></record>\n'
        + "</odoo>\n"
    )
    _module(tmp_path, "x", ["base"], ["data/params.xml"], {"data/params.xml": xml})
    found = _static(tmp_path, "x")
    assert _codes(found, "duplicate-xml-id") == [("x/data/params.xml", 7)]


def test_file_listed_twice_is_one_finding_at_the_manifest(tmp_path: Path) -> None:
    xml = (
        XML_HEAD
        + '<odoo>\n<record id="a" model="res.groups"/>\n<record id="b" model="res.groups"/>\n</odoo>\n'
    )
    _module(tmp_path, "x", ["base"], ["data/groups.xml", "data/groups.xml"], {"data/groups.xml": xml})
    found = [f for f in _static(tmp_path, "x") if f.code == "duplicate-xml-id"]
    assert len(found) == 1
    assert found[0].path == "x/__manifest__.py" and "twice" in found[0].message
    assert found[0].severity == "info"


def test_qweb_key_is_ignored_since_15(tmp_path: Path) -> None:
    _module(tmp_path, "x", ["base"], [], {})
    manifest = tmp_path / "x" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("'data': []", "'data': [], 'qweb': ['static/x.xml']"))
    assert _codes(_static(tmp_path, "x", "17.0"), "data-file-missing") == []
    assert _codes(_static(tmp_path, "x", "14.0"), "data-file-missing") == [("x/__manifest__.py", 1)]


def _f(source: str, code: str, line: int | None, path: str = "m/a.py", message: str = "x") -> Finding:
    return Finding(source=source, code=code, module="m", path=path, line=line, message=message)


def test_one_problem_one_finding_by_file_line_and_kind() -> None:
    broken = [
        _f("oca-hooks", "manifest-syntax-error", 1, "m/__manifest__.py"),
        _f("manifest", "manifest-syntax", 3, "m/__manifest__.py"),
        _f("pylint", "E0001", 3, "m/__manifest__.py"),
        _f("flake8", "E999", 3, "m/__manifest__.py"),
    ]
    kept = drop_duplicates(broken, ["pylint", "flake8", "oca-hooks", "static"])
    assert len(kept) == 1 and kept[0].line == 3
    keys = [_f("pylint", "W0109", 1), _f("flake8", "F601", 1), _f("flake8", "F601", 1)]
    assert len(drop_duplicates(keys, ["pylint", "flake8"])) == 1
    # Two different duplicate ids of one module (one same-file, one cross-file) both stay.
    ids = [
        _f("static", "duplicate-xml-id", 4, "m/a.xml", "id a"),
        _f("static", "duplicate-xml-id", 9, "m/b.xml", "id b"),
    ]
    assert len(drop_duplicates(ids, ["static"])) == 2
    # The same code on two lines is two problems.
    assert len(drop_duplicates([_f("flake8", "F401", 1), _f("flake8", "F401", 2)], ["flake8"])) == 2


def test_missing_file_reported_by_pylint_and_static_once() -> None:
    found = [
        _f("pylint", "F8101", 1, "m/__manifest__.py", 'File "__manifest__.py": "data/x.xml" not found.'),
        _f("static", "data-file-missing", 5, "m/__manifest__.py", "The manifest lists 'data/x.xml', ..."),
        _f("static", "data-file-missing", 6, "m/__manifest__.py", "The manifest lists 'data/y.xml', ..."),
    ]
    kept = drop_duplicates(found, ["pylint", "static"])
    assert sorted((f.source, f.line) for f in kept) == [("static", 5), ("static", 6)]


def test_uninstallable_module_is_listed_as_skipped(tmp_path: Path) -> None:
    _module(tmp_path, "on", ["base"], [], {})
    _module(tmp_path, "off", ["base"], [], {})
    manifest = tmp_path / "off" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("}", ", 'installable': False}"))
    project = load_project([tmp_path])
    assert [a.name for a in project.select([])] == ["on"]
    assert project.skipped([]) == {"off": "installable: False in its manifest"}
    assert project.skipped([str(tmp_path / "on")]) == {}
    run = lint_addons_sync(
        project, project.select([]), ["static"], cache=LintCache(None), digests=FileDigests()
    )
    assert run.modules == ["on"]


def test_same_file_rewrites_that_are_not_duplicates(tmp_path: Path) -> None:
    xml = (
        XML_HEAD
        + '<odoo>\n<record id="base.menu_custom" model="ir.ui.menu">'
        + '<field name="sequence">5</field></record>\n'
        + '<record id="base.menu_custom" model="ir.ui.menu"><field name="name">X</field></record>\n'
        + '<record id="m" model="ir.ui.menu"><field name="name">M</field></record>\n'
        + '<menuitem id="m" name="M"/>\n</odoo>\n'
    )
    other = XML_HEAD + '<odoo>\n<menuitem id="m" name="Other" parent="base.menu_custom"/>\n</odoo>\n'
    _module(
        tmp_path,
        "x",
        ["base"],
        ["views/menu.xml", "views/more.xml"],
        {"views/menu.xml": xml, "views/more.xml": other},
    )
    found = [(f.path, f.line, f.severity) for f in _static(tmp_path, "x") if f.code == "duplicate-xml-id"]
    assert found == [("x/views/more.xml", 3, "warning")]  # a second <menuitem> replaces the first


def test_name_get_next_to_compute_display_name_is_not_flagged(tmp_path: Path) -> None:
    both = (
        MODEL
        + "    _description = 'T'\n\n    def _compute_display_name(self):\n        pass\n\n"
        + "    def name_get(self):\n        pass\n"
    )
    only = (
        MODEL.replace("x.thing", "x.old")
        + "    _description = 'O'\n\n    def name_get(self):\n        pass\n"
    )
    _module(tmp_path, "x", ["base"], [], {"models/both.py": both, "models/only.py": only})
    found = [f.path for f in _static(tmp_path, "x", "17.0") if f.code == "removed-name-get"]
    assert found == ["x/models/only.py"]


def test_broken_xml_the_manifest_does_not_load_is_not_an_error(tmp_path: Path) -> None:
    _module(
        tmp_path,
        "x",
        ["base"],
        ["views/ok.xml"],
        {"views/ok.xml": XML_HEAD + "<odoo/>\n", "views/backup.xml": "<odoo><!-- \n"},
    )
    errors = [f for f in _static(tmp_path, "x") if f.severity == "error"]
    assert errors == []


def test_inline_tree_sub_view_is_a_warning_a_tree_view_an_error(tmp_path: Path) -> None:
    # Real Odoo 18 (odoo18-ce) installs a form whose one2many holds an inline <tree>: not an error.
    arch = (
        '<record id="{id}" model="ir.ui.view">\n  <field name="model">res.partner</field>\n'
        '  <field name="arch" type="xml">\n{arch}\n  </field>\n</record>\n'
    )
    inline = '<form><field name="child_ids">\n<tree><field name="name"/></tree>\n</field></form>'
    top = '<tree>\n<field name="name"/>\n</tree>'
    views = arch.format(id="f", arch=inline) + arch.format(id="t", arch=top)
    xml = XML_HEAD + "<odoo>\n" + views + "</odoo>\n"
    _module(tmp_path, "x", ["base"], ["views/v.xml"], {"views/v.xml": xml})
    trees = [f for f in _static(tmp_path, "x", "18.0") if f.code == "removed-tree"]
    found = sorted((f.line or 0, f.severity) for f in trees)
    assert [severity for _, severity in found] == ["warning", "error"]  # the inline one comes first


def test_fieldless_method_only_model_without_access_rule_is_a_warning(tmp_path: Path) -> None:
    """A dashboard model (no field, only methods called through RPC or sudo()) works for every
    user without an access rule; one with a field, or shown in a view, still does not."""
    dashboard = MODEL.replace("x.thing", "x.dash") + (
        "    _description = 'Dashboard'\n\n    def get_kpis(self):\n        return {}\n"
    )
    stored = (
        MODEL + "    _description = 'Thing'\n    name = fields.Char()\n\n    def go(self):\n        pass\n"
    )
    shown = (
        MODEL.replace("x.thing", "x.shown")
        + "    _description = 'Shown'\n\n    def go(self):\n        pass\n"
    )
    view = (
        XML_HEAD + '<odoo>\n<record id="v" model="ir.ui.view">\n  <field name="model">x.shown</field>\n'
        '  <field name="arch" type="xml"><form/></field>\n</record>\n</odoo>\n'
    )
    files = {
        "models/dash.py": dashboard,
        "models/thing.py": stored.replace("import models", "import fields, models"),
        "models/shown.py": shown,
        "views.xml": view,
    }
    _module(tmp_path, "x", ["base"], ["views.xml"], files)
    graded = sorted((f.path, f.severity) for f in _static(tmp_path, "x") if f.code == "missing-access-rule")
    assert graded == [
        ("x/models/dash.py", "warning"),
        ("x/models/shown.py", "error"),
        ("x/models/thing.py", "error"),
    ]


def test_qweb_globs_before_15_match_files_and_a_missing_one_is_a_warning(tmp_path: Path) -> None:
    """Seen on OCA/web 14.0: 'qweb': ['static/src/xml/*.xml'] is a glob Odoo expands (web's
    manifest_glob), and a qweb entry that matches nothing is skipped silently; the module
    installs. A missing data file still fails the install."""
    files = {"static/src/xml/widget.xml": "<templates/>\n"}
    _module(tmp_path, "x", ["base"], ["views/missing.xml"], files)
    manifest = tmp_path / "x" / "__manifest__.py"
    qweb = "'qweb': ['static/src/xml/*.xml', 'static/src/xml/gone.xml']"
    manifest.write_text(manifest.read_text().replace("'data':", qweb + ", 'data':"))
    found = [f for f in _static(tmp_path, "x", "14.0") if f.code == "data-file-missing"]
    assert sorted((f.severity, f.message.split("'")[1]) for f in found) == [
        ("error", "views/missing.xml"),
        ("warning", "static/src/xml/gone.xml"),
    ]


def test_unknown_group_inside_a_view_arch_is_a_warning_elsewhere_an_error(tmp_path: Path) -> None:
    """Checked with a real Odoo 18 install (a custom inventory_report module): a view whose
    <field groups="stock.group_production_lot base.group_multi_company"> names no group
    installs, ir.ui.view only logs 'The group ... defined in view does not exist!'. A menu's
    groups are a ref Odoo resolves at load: an unknown one fails the install."""
    view = (
        XML_HEAD + '<odoo>\n<record id="v" model="ir.ui.view">\n  <field name="model">res.partner</field>\n'
        '  <field name="arch" type="xml">\n    <form>\n'
        '      <field name="name" groups="x.group_nope base.group_user"/>\n'
        "    </form>\n  </field>\n</record>\n"
        '<menuitem id="m" name="M" groups="x.group_missing"/>\n</odoo>\n'
    )
    _module(tmp_path, "x", ["base"], ["views.xml"], {"views.xml": view})
    found = [f for f in _static(tmp_path, "x", "18.0") if f.code == "xml-id-undefined"]
    assert sorted((f.line, f.severity) for f in found) == [(7, "warning"), (11, "error")]


def test_an_id_made_in_a_dependency_s_name_resolves(tmp_path: Path) -> None:
    """OCA's agreement_sale 18.0 makes agreement.agreement_type_menu_main itself and hangs a menu
    under it: Odoo accepts a record id qualified with an installed module's name (it installs on
    the 18.0 lab). Referring to it before it is made, or to an id nobody makes, stays an error."""
    menus = XML_HEAD + '<odoo>\n<menuitem id="top" name="Top"/>\n</odoo>\n'
    _module(tmp_path, "agreement", ["base"], ["menus.xml"], {"menus.xml": menus})
    mine = (
        XML_HEAD
        + '<odoo>\n<menuitem id="agreement.made_here" name="Types" parent="agreement.top"/>\n'
        + '<menuitem id="types" name="T" parent="agreement.made_here"/>\n'
        + '<menuitem id="early" name="E" parent="agreement.made_later"/>\n'
        + '<menuitem id="agreement.made_later" name="Later" parent="agreement.top"/>\n'
        + '<menuitem id="nowhere" name="N" parent="agreement.made_nowhere"/>\n</odoo>\n'
    )
    _module(tmp_path, "agreement_sale", ["agreement"], ["menus.xml"], {"menus.xml": mine})
    undefined = _codes(_static(tmp_path, "agreement_sale", "18.0"), "xml-id-undefined")
    assert undefined == [("agreement_sale/menus.xml", 5), ("agreement_sale/menus.xml", 7)]


def test_an_own_id_a_pre_init_hook_may_make_is_a_warning(tmp_path: Path) -> None:
    """OCA's l10n_br_stock 18.0: its pre_init_hook gives the demo warehouses' locations their ids
    (ir.model.data._update_xmlids with f-strings), and Odoo runs it before the data files."""
    data = XML_HEAD + '<odoo>\n<menuitem id="m" name="M" parent="x.made_by_hook"/>\n</odoo>\n'
    _module(tmp_path, "x", ["base"], ["menus.xml"], {"menus.xml": data})
    assert [(f.line, f.severity) for f in _static(tmp_path, "x", "18.0") if f.code == "xml-id-undefined"] == [
        (3, "error")
    ]
    manifest = tmp_path / "x" / "__manifest__.py"
    manifest.write_text(manifest.read_text()[:-1] + ", 'pre_init_hook': 'pre_init_hook'}", encoding="utf-8")
    found = [f for f in _static(tmp_path, "x", "18.0") if f.code == "xml-id-undefined"]
    assert [(f.line, f.severity) for f in found] == [(3, "warning")] and "pre_init_hook" in found[0].message


def test_a_manual_field_name_is_not_claimed_unknown(tmp_path: Path) -> None:
    """website_attribute_set 19.0's demo attributes create manual fields (ir.model.fields, whose
    names Odoo requires to start with x_) that later demo records set on product.template;
    web_widget_dropdown_dynamic's demo view shows the one its demo creates."""
    data = (
        XML_HEAD
        + '<odoo>\n<record id="p" model="res.partner">\n  <field name="x_made_by_data">1</field>\n'
        + '  <field name="nope_field">1</field>\n</record>\n</odoo>\n'
    )
    view = (
        XML_HEAD
        + '<odoo>\n<record id="v" model="ir.ui.view">\n  <field name="model">res.partner</field>\n'
        + '  <field name="arch" type="xml"><form><field name="x_made_by_data"/>'
        + '<field name="nope_field"/></form></field>\n</record>\n</odoo>\n'
    )
    _module(tmp_path, "x", ["base"], ["data.xml", "view.xml"], {"data.xml": data, "view.xml": view})
    found = _static(tmp_path, "x", "18.0")
    assert _codes(found, "record-field-unknown") == [("x/data.xml", 5)]
    unknown = [f.message for f in found if f.code == "view-field-unknown"]
    assert len(unknown) == 1 and unknown[0].startswith('Field "nope_field" does not exist')


def test_a_chart_template_s_ref_method_is_no_external_id(tmp_path: Path) -> None:
    """l10n_ro_nondeductible_vat 19.0's demo: ``obj().with_company(...).ref('pcg_6352')`` is
    account.chart.template's ref (a chart account); the env.ref inside it is an external ID."""
    data = (
        XML_HEAD
        + '<odoo>\n<record id="base.main_company" model="res.company">\n  <field name="name"\n'
        + "    eval=\"obj().with_company(obj().env.ref('base.nope_company')).ref('pcg_6352').id\"/>\n"
        + "</record>\n</odoo>\n"
    )
    _module(tmp_path, "x", ["base"], ["data.xml"], {"data.xml": data})
    found = [f.message for f in _static(tmp_path, "x", "18.0") if f.code == "xml-id-undefined"]
    assert len(found) == 1 and "base.nope_company" in found[0]


def test_super_of_a_removed_method_in_its_own_override_is_no_call(tmp_path: Path) -> None:
    """hr_employee_attendance_report_leaves 18.0 overrides name_get and calls super().name_get():
    nothing in Odoo 18.0 calls name_get, so the override never runs; a call elsewhere still fails."""
    code = (
        "from odoo import models\n\n\nclass T(models.Model):\n    _inherit = 'res.partner'\n\n"
        "    def name_get(self):\n        return super().name_get()\n\n"
        "    def label(self):\n        return self.name_get()\n"
    )
    _module(tmp_path, "x", ["base"], [], {"__init__.py": "from . import m\n", "m.py": code})
    assert _codes(_static(tmp_path, "x", "18.0"), "removed-name-get-call") == [("x/m.py", 11)]


def test_a_special_button_calls_no_method(tmp_path: Path) -> None:
    """l10n_es_partner 19.0's wizard: <button name="action_skip" type="object" special="cancel">
    on a model without action_skip installs (Odoo validates no method of a special= button)."""
    view = (
        XML_HEAD
        + '<odoo>\n<record id="v" model="ir.ui.view">\n  <field name="model">x.thing</field>\n'
        + '  <field name="arch" type="xml"><form><footer><button name="action_skip_nope" type="object"'
        + ' special="cancel"/>\n<button name="action_go_nope" type="object"/></footer></form></field>\n'
        + "</record>\n</odoo>\n"
    )
    files = {"__init__.py": "from . import m\n", "m.py": MODEL + "    _description = 'T'\n", "view.xml": view}
    _module(tmp_path, "x", ["base"], ["view.xml"], files)
    found = [f.message for f in _static(tmp_path, "x", "18.0") if f.code == "button-method-unknown"]
    assert len(found) == 1 and "action_go_nope" in found[0]


def test_an_error_in_demo_data_is_a_warning(tmp_path: Path) -> None:
    """res_company_active 19.0's demo sets res.groups' users (user_ids there): the 19.0 lab installs
    it without its demo data ("demo data failed to install", a warning); in data it would fail."""
    record = (
        XML_HEAD + '<odoo>\n<record id="p" model="res.partner">\n  <field name="nope_field">1</field>\n'
        "</record>\n</odoo>\n"
    )
    _module(tmp_path, "x", ["base"], ["data.xml"], {"data.xml": record, "demo.xml": record})
    manifest = tmp_path / "x" / "__manifest__.py"
    manifest.write_text(manifest.read_text()[:-1] + ", 'demo': ['demo.xml']}", encoding="utf-8")
    found = [(f.path, f.severity) for f in _static(tmp_path, "x", "18.0") if f.code == "record-field-unknown"]
    assert sorted(found) == [("x/data.xml", "error"), ("x/demo.xml", "warning")]


def test_a_missing_demo_only_file_is_a_warning_a_missing_data_file_an_error(tmp_path: Path) -> None:
    """Odoo 17-19 load demo data in a savepoint (odoo/modules/loading.py load_demo) and install the
    module without it when that fails: a missing demo file breaks only installs with demo data.
    A file listed in data as well is opened at every install."""
    _module(tmp_path, "x", ["base"], ["views/gone.xml", "data/both.xml"], {})
    manifest = tmp_path / "x" / "__manifest__.py"
    demo = "'demo': ['demo/gone_demo.xml', 'data/both.xml'], 'data':"
    manifest.write_text(manifest.read_text().replace("'data':", demo))
    found = [f for f in _static(tmp_path, "x", "18.0") if f.code == "data-file-missing"]
    assert sorted((f.message.split("'")[1], f.severity) for f in found) == [
        ("data/both.xml", "error"),
        ("demo/gone_demo.xml", "warning"),
        ("views/gone.xml", "error"),
    ]

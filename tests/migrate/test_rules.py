"""Rules per series step on small fixture modules: what each rewrites, what it leaves as a finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.migrate.steps.to_17.attrs import Untranslatable, attrs_expressions, states_expression
from odoo_tools.series import Series


def _text(modules: Path, rel: str) -> str:
    return (modules / rel).read_text()


def test_attrs_domains_become_expressions() -> None:
    assert attrs_expressions("{'invisible': [('state', '=', 'draft')]}") == {"invisible": "state == 'draft'"}
    assert attrs_expressions("{'readonly': ['|', ('a', '=', False), ('b', 'in', [1, 2])]}") == {
        "readonly": "not a or b in [1, 2]"
    }
    assert attrs_expressions("{'invisible': ['!', '|', ('a', '=', 1), ('b', '>', 2), ('c', '=', True)]}") == {
        "invisible": "not (a == 1 or b > 2) and c"
    }
    assert attrs_expressions("{'invisible': [('x', '!=', parent.y)]}") == {"invisible": "x != parent.y"}
    assert states_expression("draft, sent") == "state not in ('draft', 'sent')"


@pytest.mark.parametrize(
    "attrs",
    [
        "{'invisible': [('name', 'ilike', 'x')]}",
        "{'invisible': [('a', 'child_of', 1)]}",
        "[('a', '=', 1)]",
        "{oops",
    ],
)
def test_untranslatable_attrs_raise(attrs: str) -> None:
    with pytest.raises(Untranslatable):
        attrs_expressions(attrs)


def test_16_to_17_views(modules: Path) -> None:
    report = migrate([modules / "v16"], "17.0", write=True)
    [module] = report.modules
    views = _text(modules, "v16/mig_attrs/views/thing_views.xml")
    assert 'string="Send" invisible="state != \'draft\'"/>' in views
    assert '<field name="name" readonly="state != \'draft\'"/>' in views
    assert (
        "invisible=\"state == 'draft' or not active\"\n"
        "                           required=\"state == 'done'\"/>" in views
    )
    assert "<!-- only while it is a draft -->" in views  # comments stay
    assert "<tree>" in views  # <tree> is still the list's name in 17.0
    assert "attrs=" not in views and "states=" not in views
    assert (
        '            <field name="note" position="attributes">\n'
        "                <attribute name=\"invisible\">state == 'draft'</attribute>\n"
        '                <attribute name="readonly">not active</attribute>\n'
        "            </field>\n"
        '            <button name="action_send" position="attributes">\n'
        "                <attribute name=\"invisible\">state not in ('draft', 'sent')</attribute>\n"
    ) in views
    assert module.rules_applied == {
        "removed-attrs": 4,
        "removed-states": 2,
        "version-bump": 1,
        "old-migrations": 1,
    }
    assert '"version": "17.0.1.0.0",' in _text(modules, "v16/mig_attrs/__manifest__.py")
    assert not (modules / "v16/mig_attrs/migrations").exists()
    [name_get] = module.findings
    assert (name_get.code, name_get.line) == ("removed-name-get", 13)
    assert name_get.path == "mig_attrs/models/thing.py" and name_get.severity == "warning"


def test_untranslatable_attrs_is_a_finding_and_stays(modules: Path) -> None:
    views = modules / "v16/mig_attrs/views/thing_views.xml"
    views.write_text(views.read_text().replace("('state', '!=', 'draft')", "('name', 'ilike', 'x')"))
    [module] = migrate([modules / "v16"], "17.0", write=True).modules
    [finding] = [f for f in module.findings if f.code == "removed-attrs"]
    assert (finding.severity, finding.line) == ("error", 14)
    assert "ilike" in finding.message
    assert "attrs=\"{'readonly': [('name', 'ilike', 'x')]}\"" in views.read_text()


def test_17_to_18(modules: Path) -> None:
    [module] = migrate([modules / "v17"], "18.0", write=True).modules
    views = _text(modules, "v17/mig_views/views/note_views.xml")
    assert '<list string="Notes">' in views and "</list>" in views and "<tree" not in views
    assert "                <chatter/>\n            </form>" in views
    assert '<field name="view_mode">list,form</field>' in views
    python = _text(modules, "v17/mig_views/models/note.py")
    assert "from odoo.tools import ustr" not in python
    assert "name = fields.Char(required=True)  # searched as typed" in python
    assert 'fields.Float(aggregator="max")' in python
    assert "if self._has_cycle():" in python
    assert 'if self.env.user.has_group("base.group_system"):' in python
    assert "return str(self.manager_note or self.name)" in python
    assert '"views": [(False, "list"), (False, "form")],' in python
    assert module.rules_applied["removed-tree"] == 1 and module.rules_applied["replaced-oe-chatter"] == 1
    codes = {(f.code, f.line) for f in module.findings}
    assert ("removed-name-search", 35) in codes and ("js-assets", None) in codes


def test_16_to_17_field_states_move_to_the_views(tmp_path: Path) -> None:
    """OCA account_invoice_check_total: readonly=True, states={'draft': [('readonly', False)]}
    left the field readonly everywhere on 17.0 (its own test could not set it in a draft bill)."""
    module = tmp_path / "checked"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text(
        "{'name': 'c', 'version': '16.0.1.0.0', 'depends': ['account']}\n"
    )
    (module / "move.py").write_text(
        "from odoo import fields, models\n\n\n"
        "class AccountMove(models.Model):\n"
        '    _inherit = "account.move"\n\n'
        "    check_total = fields.Monetary(\n"
        '        string="Verification Total",\n'
        "        readonly=True,\n"
        '        states={"draft": [("readonly", False)], "sent": [("readonly", False)]},\n'
        "        copy=False,\n"
        "    )\n"
        '    note = fields.Char(states={"posted": [("invisible", True)]})\n'
    )
    view = (
        '<odoo>\n  <record id="v" model="ir.ui.view">\n    <field name="model">account.move</field>\n'
        '    <field name="inherit_id" ref="account.view_move_form"/>\n    <field name="arch" type="xml">\n'
        '      <field name="ref" position="after">\n'
        '        <field name="check_total" groups="base.group_user"/>\n'
        '        <field name="line_ids"><tree><field name="check_total"/></tree></field>\n'
        "      </field>\n    </field>\n  </record>\n</odoo>\n"
    )
    (module / "views" / "move.xml").write_text(view)
    [migrated] = migrate([module], "17.0", write=True).modules
    python = (module / "move.py").read_text()
    assert '        string="Verification Total",\n        copy=False,\n    )\n' in python
    assert 'note = fields.Char(states={"posted": [("invisible", True)]})' in python  # said, not guessed
    assert (module / "views" / "move.xml").read_text() == view.replace(
        '<field name="check_total" groups="base.group_user"/>',
        '<field name="check_total" groups="base.group_user" readonly="state not in (\'draft\', \'sent\')"/>',
    )
    assert migrated.steps[0].rules_applied["removed-field-states"] == 2
    assert [(f.code, f.line) for f in migrated.findings if f.code == "removed-field-states"] == [
        ("removed-field-states", 13)
    ]


def test_16_to_17_search_loses_count(tmp_path: Path) -> None:
    """OCA product_supplierinfo_for_customer's search override passed count=count to super(): on
    17.0 every search of the model failed (unexpected keyword argument 'count')."""
    module = tmp_path / "counting"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'c', 'version': '16.0.1.0.0', 'depends': ['product']}\n"
    )
    (module / "m.py").write_text(
        "class Info(models.Model):\n"
        '    _inherit = "product.supplierinfo"\n\n'
        "    @api.model\n"
        "    def search(self, args, offset=0, limit=None, order=None, count=False):\n"
        "        res = super().search(args, offset=offset, limit=limit, order=order, count=count)\n"
        "        if count or self.env.context.get('x'):  # keep\n"
        "            return res\n"
        "        return res.filtered(lambda r: r.count)\n\n"
        "    def total(self):\n"
        "        return self.search([('a', '=', 1)], order='id', count=True)\n\n"
        "    def page(self):\n"
        "        return self.search([], offset=5, count=True)\n"
    )
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "m.py").read_text() == (
        "class Info(models.Model):\n"
        '    _inherit = "product.supplierinfo"\n\n'
        "    @api.model\n"
        "    def search(self, args, offset=0, limit=None, order=None):\n"
        "        res = super().search(args, offset=offset, limit=limit, order=order)\n"
        "        if False or self.env.context.get('x'):  # keep\n"
        "            return res\n"
        "        return res.filtered(lambda r: r.count)\n\n"
        "    def total(self):\n"
        "        return self.search_count([('a', '=', 1)])\n\n"
        "    def page(self):\n"
        "        return self.search([], offset=5, count=True)\n"
    )
    found = {(f.code, f.line, f.severity) for f in migrated.findings if f.code == "removed-search-count"}
    assert found == {("removed-search-count", 5, "warning"), ("removed-search-count", 15, "error")}


def test_16_to_17_removed_model_patching(tmp_path: Path) -> None:
    """OCA server_action_mass_edit read BaseModel.CONCURRENCY_CHECK_FIELD at import and
    base_name_search_improved patched _name_search at runtime: both fail their 17.0 install."""
    module = tmp_path / "patching"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['base']}\n")
    (module / "m.py").write_text(
        "from odoo import models\n"
        "MAGIC = models.MAGIC_COLUMNS + [models.BaseModel.CONCURRENCY_CHECK_FIELD]  # skipped\n"
        "\n"
        "def patch(model):\n"
        "    model._patch_method('_name_search', lambda *a: None)\n"
        "    model._revert_method('_name_search')\n"
    )
    [migrated] = migrate([module], "17.0", write=True).modules
    assert 'MAGIC = models.MAGIC_COLUMNS + ["__last_update"]  # skipped\n' in (module / "m.py").read_text()
    assert migrated.steps[0].rules_applied["removed-concurrency-check-field"] == 1
    text = (module / "m.py").read_text()
    assert text.endswith(
        "def patch(model):\n"
        "    _patch_method(model, '_name_search', lambda *a: None)\n"
        "    _revert_method(model, '_name_search')\n"
    )
    assert migrated.steps[0].rules_applied["removed-patch-method"] == 1
    assert migrated.steps[0].rules_applied["removed-revert-method"] == 1
    found = {(f.code, f.line, f.severity) for f in migrated.findings}
    assert ("removed-patch-method", 24, "warning") in found  # the patch is still said, not as an error
    assert not [f for f in migrated.findings if f.severity == "error"]
    # the file's own functions do what Odoo 16.0's did, on a model's class or a record of it
    namespace: dict[str, object] = {}
    helpers = text.split("MAGIC =")[0].replace("from odoo import models", "")
    exec(compile(helpers, "m.py", "exec"), namespace)

    class Model:
        def name(self) -> str:
            return "core"

    def patched(self: Model) -> str:
        return "patched " + str(patched.origin(self))  # type: ignore[attr-defined]

    namespace["_patch_method"](Model(), "name", patched)  # type: ignore[operator]
    assert Model().name() == "patched core"
    namespace["_revert_method"](Model, "name")  # type: ignore[operator]
    assert Model().name() == "core"


def test_16_to_17_patching_keeps_one_argument_per_line(tmp_path: Path) -> None:
    """OCA sale_automatic_workflow_job writes ``self._patch_method(`` with one argument per line:
    the record it was called on becomes a first argument on a line of its own."""
    module = tmp_path / "patching"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['base']}\n")
    (module / "m.py").write_text(
        "def patch(self, name):\n    self._patch_method(\n        name,\n        self._wrap(name),\n    )\n"
    )
    migrate([module], "17.0", write=True)
    assert (
        (module / "m.py")
        .read_text()
        .endswith(
            "def patch(self, name):\n"
            "    _patch_method(\n        self,\n        name,\n        self._wrap(name),\n    )\n"
        )
    )


def test_16_to_17_patching_left_to_a_person(tmp_path: Path) -> None:
    """What is not a call of Odoo's _patch_method (super()'s, a module's own method of that
    name) is not rewritten: still an error at its line."""
    module = tmp_path / "patching"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['base']}\n")
    source = (
        "class A:\n"
        "    def f(self):\n"
        "        super()._patch_method('x', None)\n"
        "        return getattr(self, '_revert_method')\n"
    )
    (module / "a.py").write_text(source)
    own = (
        "class B:\n    def _patch_method(self, a, b):\n        pass\n\n"
        "    def g(self):\n        self._patch_method(1, 2)\n"
    )
    (module / "b.py").write_text(own)
    similar = "class C:\n    def _patch_methods(self):\n        self.env['x']._patch_method('a', f)\n"
    (module / "c.py").write_text(similar)  # a method of another name: Odoo's is still called
    [migrated] = migrate([module], "17.0", write=True).modules
    assert "        _patch_method(self.env['x'], 'a', f)\n" in (module / "c.py").read_text()
    assert (module / "a.py").read_text() == source
    assert (module / "b.py").read_text() == own
    found = {(f.path.rsplit("/", 1)[-1], f.code, f.line, f.severity) for f in migrated.findings}
    assert ("a.py", "removed-patch-method", 3, "error") in found
    assert migrated.steps[0].rules_applied["removed-patch-method"] == 1  # c.py's


def test_17_to_18_storable_products(tmp_path: Path) -> None:
    module = tmp_path / "prod"
    (module / "data").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'name': 'p', 'version': '17.0.1.0.0', 'depends': ['stock']}\n")
    (module / "data" / "p.xml").write_text(
        '<odoo>\n    <record id="p" model="product.template">\n'
        '        <field name="detailed_type">product</field>\n    </record>\n</odoo>\n'
    )
    (module / "t.py").write_text(
        "def f(env):\n    p = env['product.product'].create({'name': 'x', 'type': 'product'})\n"
        "    return p.type == 'product', [('detailed_type', '=', 'product')]\n"
    )
    migrate([module], "18.0", write=True)
    assert (module / "data" / "p.xml").read_text() == (
        '<odoo>\n    <record id="p" model="product.template">\n        <field name="type">consu</field>\n'
        '        <field name="is_storable" eval="True"/>\n    </record>\n</odoo>\n'
    )
    assert (module / "t.py").read_text() == (
        "def f(env):\n"
        "    p = env['product.product'].create({'name': 'x', 'type': 'consu', 'is_storable': True})\n"
        "    return p.is_storable, [('is_storable', '=', True)]\n"
    )


def test_17_to_18_account_tests_drop_chart_template_ref(tmp_path: Path) -> None:
    module = tmp_path / "acc"
    (module / "tests").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0', 'depends': ['account']}\n")
    (module / "tests" / "test_a.py").write_text(
        "class T(AccountTestInvoicingCommon):\n"
        "    @classmethod\n"
        "    def setUpClass(cls, chart_template_ref=None):\n"
        "        super().setUpClass(chart_template_ref=chart_template_ref)  # the company's chart\n"
        "\n\nclass U(AccountTestInvoicingCommon):\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        "        super().setUpClass(chart_template_ref='l10n_be.l10nbe_chart_template')\n"
    )
    [migrated] = migrate([module], "18.0", write=True).modules
    text = (module / "tests" / "test_a.py").read_text()
    assert "    def setUpClass(cls):\n        super().setUpClass()  # the company's chart\n" in text
    assert "        super().setUpClass()\n" in text.split("class U")[1]
    [finding] = [f for f in migrated.findings if f.code == "removed-chart-template-ref"]
    assert (finding.path, finding.line) == ("acc/tests/test_a.py", 10)
    assert migrated.rules_applied["removed-chart-template-ref"] == 3


def test_17_to_18_cron_loses_numbercall(tmp_path: Path) -> None:
    module = tmp_path / "cron"
    (module / "data").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0'}\n")
    (module / "data" / "cron.xml").write_text(
        '<odoo>\n    <record id="c" model="ir.cron">\n        <field name="interval_number">1</field>\n'
        '        <field name="numbercall">-1</field>\n        <field name="doall" eval="False"/>\n'
        '    </record>\n    <record id="d" model="ir.cron">\n        <field name="numbercall" eval="3"/>\n'
        "    </record>\n</odoo>\n"
    )
    [migrated] = migrate([module], "18.0", write=True).modules
    assert (module / "data" / "cron.xml").read_text() == (
        '<odoo>\n    <record id="c" model="ir.cron">\n        <field name="interval_number">1</field>\n'
        '    </record>\n    <record id="d" model="ir.cron">\n    </record>\n</odoo>\n'
    )
    [finding] = migrated.findings
    assert (finding.code, finding.line) == ("removed-cron-numbercall", 8)


def test_17_to_18_account_companies(tmp_path: Path) -> None:
    module = tmp_path / "acc"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0'}\n")
    (module / "t.py").write_text(
        "a = env['account.account'].create({'code': 'X', 'company_id': company.id})\n"
        "b = env['res.partner'].create({'company_id': company.id})\n"
        "cls.accounts = cls.env['account.account']\n"
        "c = cls.accounts.sudo().create([{'company_id': 1}])\n"
    )
    migrate([module], "18.0", write=True)
    assert (module / "t.py").read_text() == (
        "a = env['account.account'].create({'code': 'X', 'company_ids': [(6, 0, [company.id])]})\n"
        "b = env['res.partner'].create({'company_id': company.id})\n"
        "cls.accounts = cls.env['account.account']\n"
        "c = cls.accounts.sudo().create([{'company_ids': [(6, 0, [1])]}])\n"
    )


def test_17_to_18_bus_and_routes(tmp_path: Path) -> None:
    module = tmp_path / "m"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0'}\n")
    (module / "m.py").write_text(
        "def notify(self, notifications):\n"
        "    # one message per user\n"
        '    self.env["bus.bus"]._sendmany(notifications)\n'
        "\n\ndef route(self):\n"
        '    return self._find_global_route("m.route_x", "X").id\n'
    )
    (module / "t.py").write_text(
        "def test(self):\n    self.assertEqual(self.dept.with_context(x=1).name_get()[0][1], 'D')\n"
        "    return super().name_get()\n"
    )
    migrate([module], "18.0", write=True)
    assert (module / "t.py").read_text() == (
        "def test(self):\n"
        "    self.assertEqual([(record.id, record.display_name) for record in self.dept.with_context(x=1)]"
        "[0][1], 'D')\n"
        "    return super().name_get()\n"
    )
    assert (module / "m.py").read_text() == (
        "def notify(self, notifications):\n"
        "    # one message per user\n"
        "    for notification in notifications:\n"
        '        self.env["bus.bus"]._sendone(*notification)\n'
        "\n\ndef route(self):\n"
        '    return self._find_or_create_global_route("m.route_x", "X", raise_if_not_found=True).id\n'
    )


def test_18_to_19_constraints(modules: Path) -> None:
    [module] = migrate([modules / "v18"], "19.0", write=True).modules
    python = _text(modules, "v18/mig_constraints/models/code.py")
    assert (
        "    # one code per company, and a positive rank\n"
        '    _code_uniq = models.Constraint("unique(code)", "The code must be unique.")\n'
        '    _rank_positive = models.Constraint("CHECK(rank >= 0)", "The rank cannot be negative.")\n'
    ) in python
    assert "self.env.cr.execute(" in python and "(self.env.uid,)" in python
    assert module.rules_applied == {
        "replaced-sql-constraints": 2,
        "deprecated-env-shortcuts": 3,
        "version-bump": 1,
    }


def test_two_steps_in_one_run(modules: Path) -> None:
    [module] = migrate([modules / "v16"], "18.0").modules
    assert [(s.source, s.target) for s in module.steps] == [("16.0", "17.0"), ("17.0", "18.0")]
    assert module.steps[1].rules_applied["removed-tree"] == 1
    assert '+    "version": "18.0.1.0.0",' in module.diff


def test_odoo_upgrade_code_scripts_run_first(modules: Path, tmp_path: Path) -> None:
    scripts = tmp_path / "odoo18" / "odoo" / "upgrade_code"
    scripts.mkdir(parents=True)
    (scripts / "17.5-00-note.py").write_text(
        "def upgrade(file_manager):\n"
        "    for file in file_manager:\n"
        "        if file.path.suffix == '.py' and 'Migration fixture note' in file.content:\n"
        "            file.content = file.content.replace('Migration fixture note', 'Note (18.0)')\n"
    )
    (scripts / "18.1-00-later.py").write_text("def upgrade(file_manager):\n    raise AssertionError\n")
    [module] = migrate([modules / "v17"], "18.0", odoo_sources={Series(18): tmp_path / "odoo18"}).modules
    assert module.rules_applied["upgrade_code:17.5-00-note"] == 1
    assert '_description = "Note (18.0)"' in module.diff
    assert not any(f.code.startswith("upgrade_code") for f in module.findings)  # 18.1 is not for 18.0


def test_anchors_gone_from_the_target_core_view(tmp_path: Path) -> None:
    core = tmp_path / "odoo18" / "addons" / "core_mod"
    (core / "views").mkdir(parents=True)
    (core / "__manifest__.py").write_text("{'name': 'core'}\n")
    (core / "views" / "v.xml").write_text(
        '<odoo><record id="form" model="ir.ui.view"><field name="arch" type="xml">'
        '<form><sheet><field name="name"/><field name="line_ids"><list><field name="qty"/></list></field>'
        '</sheet><div class="oe_title"/></form></field></record>'
        '<record id="form_more" model="ir.ui.view"><field name="inherit_id" ref="core_mod.form"/>'
        '<field name="arch" type="xml"><field name="name" position="after"><field name="added"/></field>'
        "</field></record></odoo>"
    )
    module = tmp_path / "mine"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0', 'depends': ['core_mod']}\n")
    (module / "views" / "v.xml").write_text(
        '<odoo>\n<record id="f" model="ir.ui.view">\n<field name="inherit_id" ref="core_mod.form"/>\n'
        '<field name="arch" type="xml">\n'
        "<xpath expr=\"//field[@name='line_ids']/tree/field[@name='qty']\" position=\"after\"/>\n"
        '<field name="added" position="after"/>\n'
        '<xpath expr="//div[hasclass(\'oe_title\')]" position="inside"/>\n'
        '<field name="gone_in_18" position="after"/>\n'
        '<xpath expr="//group[@name=\'also_gone\']" position="inside"/>\n'
        "</field>\n</record>\n</odoo>\n"
    )
    [migrated] = migrate([module], "18.0", odoo_sources={Series(18): tmp_path / "odoo18"}).modules
    gone = [(f.line, f.severity) for f in migrated.findings if f.code == "gone-view-anchor"]
    assert gone == [(8, "warning"), (9, "warning")]  # the /tree/ step was rewritten to /list/ first


def test_18_to_19_groups_id(tmp_path: Path) -> None:
    module = tmp_path / "g"
    (module / "data").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0'}\n")
    (module / "data" / "d.xml").write_text(
        '<odoo>\n<record id="u" model="res.users">\n'
        '<field name="groups_id" eval="[(4, ref(\'base.group_user\'))]"/>\n</record>\n'
        '<record id="o" model="my.model">\n<field name="groups_id" eval="[]"/>\n</record>\n</odoo>\n'
    )
    (module / "t.py").write_text(
        "user = env['res.users'].create({'login': 'x', 'groups_id': [(6, 0, [g.id])]})\n"
        "ok = g in self.env.user.groups_id and other.groups_id\n"
    )
    [migrated] = migrate([module], "19.0", write=True).modules
    assert '<field name="group_ids" eval=' in (module / "data" / "d.xml").read_text()
    assert '<field name="groups_id" eval="[]"/>' in (module / "data" / "d.xml").read_text()
    # 19.0 kept groups_id on ir.embedded.actions only: any other read of it is a renamed one
    assert (module / "t.py").read_text() == (
        "user = env['res.users'].create({'login': 'x', 'group_ids': [(6, 0, [g.id])]})\n"
        "ok = g in self.env.user.group_ids and other.group_ids\n"
    )
    assert migrated.rules_applied["renamed-groups-id"] == 4


def test_18_to_19_group_fields_everywhere(tmp_path: Path) -> None:
    """Custom 18.0 modules on 19.0: admin.groups_id in a test, related='menu_id.groups_id',
    mapped('group_ids.users.id'), a group record's users (project_timesheet_time_control,
    odoo_dynamic_dashboard, project_group, document_knowledge)."""
    module = tmp_path / "g"
    (module / "data").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0'}\n")
    (module / "data" / "d.xml").write_text(
        '<odoo>\n<record id="grp" model="res.groups">\n'
        '<field name="users" eval="[(4, ref(\'base.user_root\'))]"/>\n</record>\n</odoo>\n'
    )
    (module / "t.py").write_text(
        "admin.groups_id |= self.browse_ref('hr_timesheet.group_hr_timesheet_user')\n"
        "group_ids = fields.Many2many(related='menu_id.groups_id')\n"
        "ids = project.mapped('group_ids.users.id')\n"
        "self.env.ref('base.group_user').write({'users': [(4, u.id)]})\n"
        "members = self.group_manager.users | partner.users\n"
    )
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "t.py").read_text() == (
        "admin.group_ids |= self.browse_ref('hr_timesheet.group_hr_timesheet_user')\n"
        "group_ids = fields.Many2many(related='menu_id.group_ids')\n"
        "ids = project.mapped('group_ids.user_ids.id')\n"
        "self.env.ref('base.group_user').write({'user_ids': [(4, u.id)]})\n"
        "members = self.group_manager.user_ids | partner.users\n"
    )
    assert '<field name="user_ids" eval=' in (module / "data" / "d.xml").read_text()
    assert migrated.rules_applied["renamed-groups-users"] == 4
    # a module declaring a groups_id field of its own: only what is surely a user's is renamed
    (module / "t.py").write_text(
        "class M(models.Model):\n    groups_id = fields.Many2many('res.groups')\n\n"
        "ok = record.groups_id and self.env.user.groups_id\n"
    )
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0'}\n")
    migrate([module], "19.0", write=True)
    assert (module / "t.py").read_text().endswith("ok = record.groups_id and self.env.user.group_ids\n")


def test_17_to_18_group_expand_order(tmp_path: Path) -> None:
    module = tmp_path / "ge"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0'}\n")
    (module / "m.py").write_text(
        "class P(models.Model):\n"
        "    state_id = fields.Many2one('s', group_expand='_read_group_state_id')\n\n"
        "    def _read_group_state_id(self, states, domain, order):\n"
        "        return states.search([], order=order)\n\n"
        "    def other(self, a, b, c):\n        return a\n"
    )
    migrate([module], "18.0", write=True)
    text = (module / "m.py").read_text()
    assert "    def _read_group_state_id(self, states, domain, order=None):\n" in text
    assert "    def other(self, a, b, c):\n" in text


def test_17_to_18_attribute_spec_keys(tmp_path: Path) -> None:
    module = tmp_path / "a"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0'}\n")
    (module / "views" / "v.xml").write_text(
        '<odoo><record id="v" model="ir.ui.view"><field name="arch" type="xml">\n'
        '<field name="order_line" position="attributes">\n'
        '    <attribute\n        translation="off"\n        name="options"\n    >{}</attribute>\n'
        "</field></field></record></odoo>\n"
    )
    migrate([module], "18.0", write=True)
    assert (
        '    <attribute\n        name="options"\n    >{}</attribute>\n'
        in (module / "views" / "v.xml").read_text()
    )


def test_16_to_17_hooks_take_env(tmp_path: Path) -> None:
    module = tmp_path / "h"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'post_init_hook': 'post_init_hook'}\n")
    (module / "hooks.py").write_text(
        "def post_init_hook(cr, registry):\n"
        "    cr.execute('UPDATE x SET y = 1')  # keep\n"
        "    env = api.Environment(cr, SUPERUSER_ID, {})\n"
        "    env['res.partner'].search([]).write({'db': env.cr.dbname, 'r': registry})\n"
        "    return f(cr=cr)\n\n\n"
        "def helper(cr):\n    return cr\n"
    )
    # OCA hr_employee_firstname: the registry unused, the environment imported by name
    (module / "hooks_b.py").write_text(
        "def uninstall_hook(cr, _):\n    env = Environment(cr, SUPERUSER_ID, {})\n    env['x']._undo()\n"
    )
    (module / "test_hooks.py").write_text("post_init_hook(self.env.cr, self.env.registry)\n")
    migrate([module], "17.0", write=True)
    assert (module / "test_hooks.py").read_text() == "post_init_hook(self.env)\n"
    assert (module / "hooks.py").read_text() == (
        "def post_init_hook(env):\n"
        "    env.cr.execute('UPDATE x SET y = 1')  # keep\n"
        "    env['res.partner'].search([]).write({'db': env.cr.dbname, 'r': env.registry})\n"
        "    return f(cr=env.cr)\n\n\n"
        "def helper(cr):\n    return cr\n"
    )
    assert (module / "hooks_b.py").read_text() == "def uninstall_hook(env):\n    env['x']._undo()\n"


def test_a_file_the_rules_only_read_keeps_its_last_byte(tmp_path: Path) -> None:
    """libcst gives back a file ending in a lone carriage return without it: a file whose rules
    change nothing is not rewritten (it mentions a hook, so the hook rule reads it)."""
    module = tmp_path / "h"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0'}\n")
    data = b"def pre_hook(value):\r\n    return value\r"
    (module / "hooks.py").write_bytes(data)
    [migrated] = migrate([module], "17.0").modules
    assert "hooks.py" not in migrated.changed


def test_16_to_17_a_hook_keeps_the_comments_above_its_gone_environment(tmp_path: Path) -> None:
    """OCA purchase_no_rfq's uninstall hook: the comment above ``env = api.Environment(...)``
    speaks of the lines below it and stays with them; a hook that only made its environment keeps
    a body."""
    module = tmp_path / "h"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'uninstall_hook': 'uninstall_hook'}\n")
    (module / "hooks.py").write_text(
        "def uninstall_hook(cr, registry):\n"
        "    with api.Environment.manage():\n"
        "        # Unhide the menu item\n"
        "        env = api.Environment(cr, SUPERUSER_ID, {})\n"
        "        env.ref('x').write({'active': True})\n\n\n"
        "def post_init_hook(cr, registry):\n"
        "    env = api.Environment(cr, SUPERUSER_ID, {})  # nothing else yet\n"
    )
    migrate([module], "17.0", write=True)
    text = (module / "hooks.py").read_text()
    assert text == (
        "def uninstall_hook(env):\n"
        "    with api.Environment.manage():\n"
        "        # Unhide the menu item\n"
        "        env.ref('x').write({'active': True})\n\n\n"
        "def post_init_hook(env):\n"
        "    pass\n"
    )
    compile(text, "hooks.py", "exec")


def test_18_to_19_search_groups_lose_expand_and_string(tmp_path: Path) -> None:
    """OCA auditlog (in a custom 18.0 repository) failed its 19.0 install: 'Invalid attribute
    expand for element group' in its search view."""
    module = tmp_path / "searching"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'name': 's', 'version': '18.0.1.0.0', 'depends': ['base']}\n")
    view = (
        '<odoo>\n  <record id="s" model="ir.ui.view">\n    <field name="model">res.partner</field>\n'
        '    <field name="arch" type="xml">\n      <search string="Partners">\n'
        '        <group expand="0" string="Group By...">\n'
        "          <filter name=\"by_country\" context=\"{'group_by': 'country_id'}\"/>\n"
        "        </group>\n      </search>\n    </field>\n  </record>\n"
        '  <record id="i" model="ir.ui.view">\n    <field name="model">res.partner</field>\n'
        '    <field name="inherit_id" ref="base.view_res_partner_filter"/>\n'
        '    <field name="arch" type="xml">\n      <xpath expr="//search" position="inside">\n'
        '        <group string="Mine" expand="1"><filter name="mine" domain="[]"/></group>\n'
        "      </xpath>\n    </field>\n  </record>\n"
        '  <record id="f" model="ir.ui.view">\n    <field name="model">res.partner</field>\n'
        '    <field name="arch" type="xml">\n      <form><group string="Address"><field name="street"/>'
        "</group></form>\n    </field>\n  </record>\n</odoo>\n"
    )
    (module / "views" / "v.xml").write_text(view)
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "views" / "v.xml").read_text() == view.replace(
        '<group expand="0" string="Group By...">', "<group>"
    ).replace('<group string="Mine" expand="1">', "<group>")
    assert migrated.steps[0].rules_applied["removed-search-group-attributes"] == 2


def test_18_to_19_user_groups_in_expressions(tmp_path: Path) -> None:
    module = tmp_path / "ruled"
    (module / "security").mkdir(parents=True)
    (module / "__manifest__.py").write_text(
        "{'name': 'r', 'version': '18.0.1.0.0', 'depends': ['project']}\n"
    )
    rule = (
        '<odoo>\n  <record id="r" model="ir.rule">\n'
        '    <field name="model_id" ref="project.model_project_project"/>\n'
        "    <field name=\"domain_force\">[('group_ids', 'in', user.groups_id.ids)]</field>\n"
        '    <field name="groups" eval="[(4, ref(\'base.group_user\'))]"/>\n  </record>\n'
        '  <record id="a" model="ir.actions.server">\n'
        "    <field name=\"code\" eval=\"'ok' if user.groups_id else 'no'\"/>\n  </record>\n</odoo>\n"
    )
    (module / "security" / "rules.xml").write_text(rule)
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "security" / "rules.xml").read_text() == rule.replace("user.groups_id", "user.group_ids")
    assert migrated.steps[0].rules_applied["renamed-groups-id"] == 2


def test_16_to_17_done_quantities_are_quantity(tmp_path: Path) -> None:
    """OCA purchase_order_product_recommendation and stock_quant_safe_inventory wrote qty_done in
    their tests: "Invalid field 'qty_done' on model 'stock.move.line'" on 17.0."""
    module = tmp_path / "moves"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['stock']}\n")
    (module / "t.py").write_text(
        "picking.move_line_ids.write({'qty_done': 1})\n"
        "done = move.quantity_done + sum(picking.mapped('move_line_ids.qty_done'))\n"
        "domain = [('qty_done', '>', 0.0)]\n"
    )
    view = (
        '<odoo><record id="v" model="ir.ui.view"><field name="arch" type="xml">'
        '<tree><field name="qty_done"/></tree></field></record></odoo>\n'
    )
    (module / "views" / "v.xml").write_text(view)
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "t.py").read_text() == (  # a done quantity written or looked for is picked in 17.0
        "picking.move_line_ids.write({'quantity': 1, 'picked': True})\n"
        "done = move.quantity + sum(picking.mapped('move_line_ids.quantity'))\n"
        "domain = [('quantity', '>', 0.0), ('picked', '=', True)]\n"
    )
    assert '<field name="quantity"/>' in (module / "views" / "v.xml").read_text()
    assert migrated.steps[0].rules_applied["renamed-qty-done"] == 4 + 2  # renames, picked added
    assert migrated.steps[0].rules_applied["renamed-quantity-done"] == 1
    # a module with a qty_done field of its own keeps its name
    (module / "t.py").write_text(
        "class L(models.Model):\n    qty_done = fields.Float()\n\nx = line.qty_done\n"
    )
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['stock']}\n")
    migrate([module], "17.0", write=True)
    assert (module / "t.py").read_text().endswith("x = line.qty_done\n")


def test_16_to_17_a_done_quantity_is_a_picked_one(tmp_path: Path) -> None:
    """17.0's quantity of a move line is also what is reserved: OCA stock_quant_safe_inventory
    looked for lines with qty_done > 0 and found every reserved one on 17.0 (its test failed);
    its test wrote qty_done to mark a line done. Where a domain has OR, a zero is compared or
    picked is given already, nothing is added."""
    module = tmp_path / "safe"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['stock']}\n")
    (module / "t.py").write_text(
        "lines = env['stock.move.line'].search(\n"
        "    [\n"
        "        ('state', '!=', 'done'),\n"
        "        ('qty_done', '>', 0.0),\n"
        "    ]\n"
        ")\n"
        "other = lines.filtered_domain([('qty_done', '!=', 0), ('x', '=', 1)])\n"
        "orred = lines.filtered_domain(['|', ('qty_done', '>', 0), ('x', '=', 1)])\n"
        "zero = lines.filtered_domain([('qty_done', '=', 0)])\n"
        "moves.create([{'quantity_done': 1}, {'quantity_done': 0}])\n"
        "report = {'qty_done': 5}\n"
        "line.write({'qty_done': 1, 'picked': False})\n"
    )
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "t.py").read_text() == (
        "lines = env['stock.move.line'].search(\n"
        "    [\n"
        "        ('state', '!=', 'done'),\n"
        "        ('quantity', '>', 0.0),\n"
        "        ('picked', '=', True),\n"
        "    ]\n"
        ")\n"
        "other = lines.filtered_domain([('quantity', '!=', 0), ('picked', '=', True), ('x', '=', 1)])\n"
        "orred = lines.filtered_domain(['|', ('quantity', '>', 0), ('x', '=', 1)])\n"
        "zero = lines.filtered_domain([('quantity', '=', 0)])\n"
        "moves.create([{'quantity': 1, 'picked': True}, {'quantity': 0}])\n"
        "report = {'quantity': 5}\n"
        "line.write({'quantity': 1, 'picked': False})\n"
    )
    assert migrated.steps[0].rules_applied["renamed-qty-done"] == 6 + 2  # renames, picked added
    assert migrated.steps[0].rules_applied["renamed-quantity-done"] == 2 + 1


def test_16_to_17_unsuggested_lines_are_the_lines(tmp_path: Path) -> None:
    """OCA stock_move_packaging_qty depended on move_line_nosuggest_ids: "Wrong @depends ...
    Dependency field 'move_line_nosuggest_ids' not found in model stock.move" on 17.0."""
    module = tmp_path / "packs"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['stock']}\n")
    (module / "m.py").write_text(
        "@api.depends('move_line_ids.x', 'move_line_nosuggest_ids.x')\n"
        "def f(self):\n    return self.move_line_ids | self.picking_id.move_line_nosuggest_ids\n"
    )
    view = (
        '<odoo><record id="v" model="ir.ui.view"><field name="arch" type="xml">'
        '<form><field name="move_line_nosuggest_ids"/></form></field></record></odoo>\n'
    )
    (module / "views" / "v.xml").write_text(view)
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "m.py").read_text() == (
        "@api.depends('move_line_ids.x', 'move_line_ids.x')\n"
        "def f(self):\n    return self.move_line_ids | self.picking_id.move_line_ids\n"
    )
    assert '<form><field name="move_line_ids"/></form>' in (module / "views" / "v.xml").read_text()
    assert migrated.steps[0].rules_applied["renamed-move-line-nosuggest-ids"] == 3
    assert not [f for f in migrated.steps[0].findings if "nosuggest" in f.message]


def test_18_to_19_settings_actions_lose_target_inline(tmp_path: Path) -> None:
    """Custom 18.0 helpdesk_mgmt's settings action failed its 19.0 install ("Wrong value for
    ir.actions.act_window.target: 'inline'")."""
    module = tmp_path / "acting"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['base']}\n")
    data = (
        '<odoo>\n  <record id="a" model="ir.actions.act_window">\n'
        '    <field name="res_model">res.config.settings</field>\n'
        '    <field name="target">inline</field>\n'
        '    <field name="context">{}</field>\n  </record>\n'
        '  <record id="b" model="ir.actions.act_window">\n    <field name="target">new</field>\n  </record>\n'
        "</odoo>\n"
    )
    (module / "views" / "a.xml").write_text(data)
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "views" / "a.xml").read_text() == data.replace(
        '    <field name="target">inline</field>\n', ""
    )
    assert migrated.steps[0].rules_applied["removed-target-inline"] == 1


def test_values_of_removed_core_fields_are_dropped(tmp_path: Path) -> None:
    """Custom 18.0 stock_no_negative's test created stock.move with name, gone in 19.0."""
    module = tmp_path / "valued"
    (module / "tests").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['stock']}\n")
    (module / "tests" / "test_x.py").write_text(
        "move = self.env['stock.move'].sudo().create({\n"
        "    'name': 'Move',\n"
        "    'product_id': product.id,\n"
        "})\n"
        "other = self.env['my.model'].create({'name': 'x'})\n"
        "picking = self.env['stock.picking'].create({'move_ids': [(0, 0, {'name': 'a', 'product_id': 1})]})\n"
        "again = self.env['stock.picking'].create({'move_ids': [Command.create({'name': 'b'})]})\n"
    )
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "tests" / "test_x.py").read_text() == (
        "move = self.env['stock.move'].sudo().create({\n"
        "    'product_id': product.id,\n"
        "})\n"
        "other = self.env['my.model'].create({'name': 'x'})\n"
        "picking = self.env['stock.picking'].create({'move_ids': [(0, 0, {'product_id': 1})]})\n"
        "again = self.env['stock.picking'].create({'move_ids': [Command.create({})]})\n"
    )
    assert [(f.code, f.line) for f in migrated.findings if f.code == "removed-core-field-value"] == [
        ("removed-core-field-value", 1),
        ("removed-core-field-value", 6),
        ("removed-core-field-value", 7),
    ]


def test_a_value_of_a_field_renamed_with_an_id_suffix_is_renamed(tmp_path: Path) -> None:
    """19.0 renamed sale.order.line's and purchase.order.line's product_uom to product_uom_id (the
    same Many2one to uom.uom): dropping the value would leave the line in the product's unit (18.0
    custom laplatine_procurement_control's tests order in another unit). The key is renamed."""
    module = tmp_path / "valued"
    (module / "tests").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['purchase']}\n")
    (module / "tests" / "test_x.py").write_text(
        "line = self.env['purchase.order.line'].create({\n"
        "    'product_id': product.id,\n"
        '    "product_uom": uom.id,\n'
        "    'product_uom_qty': 2,\n"
        "})\n"
    )
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "tests" / "test_x.py").read_text() == (
        "line = self.env['purchase.order.line'].create({\n"
        "    'product_id': product.id,\n"
        '    "product_uom_id": uom.id,\n'
        "    'product_uom_qty': 2,\n"
        "})\n"
    )
    [finding] = [f for f in migrated.findings if f.code == "removed-core-field-value"]
    assert finding.line == 1 and "product_uom_id" in finding.message


def test_values_of_removed_core_fields_stay_beside_a_dependency_outside_the_core(tmp_path: Path) -> None:
    """OCA account_template_active depends on account_usability, whose own migration declares
    the account.chart.template fields 17.0 removed: its tests' values for them are still good.
    A module depending on a module outside the core keeps the values, with a warning."""
    module = tmp_path / "valued"
    (module / "tests").mkdir(parents=True)
    manifest = "{'version': '18.0.1.0.0', 'depends': ['stock', 'stock_helper']}\n"
    (module / "__manifest__.py").write_text(manifest)
    text = "move = self.env['stock.move'].create({'name': 'Move', 'product_id': 1})\n"
    (module / "tests" / "test_x.py").write_text(text)
    [migrated] = migrate([module], "19.0", write=True).modules
    assert (module / "tests" / "test_x.py").read_text() == text
    assert "removed-core-field-value" not in migrated.steps[0].rules_applied
    [finding] = [f for f in migrated.findings if f.code == "removed-core-field-value"]
    assert (finding.line, finding.severity) == (1, "warning")
    assert "stock_helper" in finding.message


def test_values_of_removed_core_fields_are_dropped_through_bound_names(tmp_path: Path) -> None:
    """Custom 18.0 sale_timesheet_line_exclude's tests bind ``self.SudoProductProduct =
    self.ProductProduct.sudo()`` in setUp and create products with uom_po_id, gone in 19.0."""
    module = tmp_path / "valued"
    (module / "tests").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['stock']}\n")
    (module / "tests" / "test_x.py").write_text(
        "class T(TransactionCase):\n"
        "    def setUp(self):\n"
        "        self.ProductProduct = self.env['product.product']\n"
        "        self.SudoProductProduct = self.ProductProduct.sudo()\n"
        "        Move = self.env['stock.move']\n"
        "        Move.create({'name': 'a'})\n"
        "        self.Other = self.env['stock.move']\n"
        "        self.Other = self.env['my.model']\n"
        "        self.Other.create({'name': 'kept: two models'})\n"
        "        for Loop in self.env['stock.move']:\n"
        "            Loop.create({'name': 'kept: a loop variable'})\n\n"
        "    def test_x(self):\n"
        "        self.SudoProductProduct.create({'name': 'p', 'uom_po_id': 1})\n"
    )
    [migrated] = migrate([module], "19.0", write=True).modules
    text = (module / "tests" / "test_x.py").read_text()
    assert "Move.create({})" in text
    assert "self.SudoProductProduct.create({'name': 'p'})" in text
    assert "'kept: two models'" in text and "'kept: a loop variable'" in text
    lines = [f.line for f in migrated.findings if f.code == "removed-core-field-value"]
    assert lines == [6, 14]


def test_19_to_20_without_the_20_source(tmp_path: Path) -> None:
    """What Odoo's 19.2-20.0 upgrade_code scripts rewrite, done by our rules when the 20.0 source
    is not at hand; a registry that is not an environment's stays a finding."""
    module = tmp_path / "twenty"
    (module / "views").mkdir(parents=True)
    (module / "controllers").mkdir()
    (module / "models").mkdir()
    (module / "__manifest__.py").write_text("{'version': '19.0.1.0.0', 'depends': ['web']}\n")
    (module / "views" / "v.xml").write_text(
        "<odoo>\n"
        '  <filter name="date" date="date" start_month="-2" end_month="0"\n'
        '          start_year="-1" end_year="0"/>\n'
        '  <template id="t" inherit_id="web.x"><xpath expr="//span[@t-esc=\'o.name\']" position="after">\n'
        "    <!-- the partner -->\n"
        '    <span t-esc="o.partner_id.name" class=\'a\'/><span t-out="1"/>\n'
        "  </xpath></template>\n"
        '  <record id="r" model="ir.attachment"><field name="datas" type="base64" file="twenty/x.png"/>\n'
        '    <field name="raw" type="base64">aGk=</field></record>\n'
        "</odoo>\n"
    )
    (module / "controllers" / "main.py").write_text(
        "from odoo import http\n\n\nclass C(http.Controller):\n"
        "    @http.route('/a', type='http', auth='user', readonly=True)  # fast\n"
        "    def a(self):\n"
        "        self.env.registry.clear_cache('stable')\n"
        "        http.request.registry.clear_cache()\n"
        "        return request.env.registry.clear_cache\n"
    )
    (module / "models" / "m.py").write_text(
        "class M(models.Model):\n"
        "    _rec_names_search = ['name']  # searched\n"
        "    _other = ['x']\n\n"
        "    def f(self):\n"
        "        _rec_names_search = ['y']\n"
        "        return [\"code\", 'name']\n\n\n"
        "class N(models.Model):\n"
        "    _rec_names_search = [\"code\", 'name']\n"
    )
    [migrated] = migrate([module], "20.0", write=True).modules
    views = (module / "views" / "v.xml").read_text()
    assert '<filter name="date" date="date"/>' in views
    assert "//span[@t-out='o.name']" in views
    assert "<!-- the partner -->\n    <span t-out=\"o.partner_id.name\" class='a'/>" in views
    assert '<span t-out="1"/>' in views
    assert '<field name="datas" type="bytes" file="twenty/x.png"/>' in views
    assert '<field name="raw" type="base64">aGk=</field>' in views  # no file=: base64 stays
    controller = (module / "controllers" / "main.py").read_text()
    assert "@http.route('/a', type='http', auth='user', replica=True)  # fast\n" in controller
    assert "self.env.transaction.invalidate_ormcache('stable')\n" in controller
    assert "http.request.registry.clear_cache()\n" in controller
    assert "return request.env.transaction.invalidate_ormcache\n" in controller
    assert (module / "models" / "m.py").read_text() == (
        "class M(models.Model):\n"
        "    _rec_names_search = ('name',)  # searched\n"
        "    _other = ['x']\n\n"
        "    def f(self):\n"
        "        _rec_names_search = ['y']\n"
        "        return [\"code\", 'name']\n\n\n"
        "class N(models.Model):\n"
        "    _rec_names_search = (\"code\", 'name')\n"
    )
    step = migrated.steps[0]
    assert step.rules_applied["removed-filter-start-month"] == 1
    assert step.rules_applied["replaced-t-esc"] == 2
    assert step.rules_applied["renamed-route-readonly"] == 1
    assert step.rules_applied["removed-registry-clear-cache"] == 2
    assert step.rules_applied["tuple-rec-names-search"] == 2
    [left] = [f for f in step.findings if f.code == "removed-registry-clear-cache"]
    assert (left.path, left.line, left.severity) == ("twenty/controllers/main.py", 8, "error")
    assert "20.0" in (module / "__manifest__.py").read_text()

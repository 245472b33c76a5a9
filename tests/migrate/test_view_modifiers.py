"""16.0 -> 17.0: the 'modifiers' view attribute and the ir_ui_view functions that made it are gone
(OCA server_action_mass_edit and partner_category_security failed their 17.0 install importing
them; base_changeset wrote 'modifiers' into the archs it built)."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.migrate import migrate
from tests.lint.test_static_checks import _module, _static

IMPORT = "from odoo.addons.base.models.ir_ui_view import"


def _module_with(tmp_path: Path, files: dict[str, str]) -> Path:
    module = tmp_path / "m"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 'm', 'version': '16.0.1.0.0', 'depends': ['base']}\n")
    for name, text in files.items():
        (module / name).write_text(text)
    return module


def _said(findings: list[Finding]) -> set[tuple[str, str, int | None, str]]:
    return {
        (f.path.rsplit("/", 1)[-1], f.code, f.line, f.severity) for f in findings if "modifiers" in f.code
    }


def test_16_to_17_the_round_trip_through_modifiers_goes(tmp_path: Path) -> None:
    """The node's own attributes are what 17.0 reads: the round trip, its dict and the imported
    names go; a round trip whose dict is read afterwards stays, an error at its call."""
    round_trip = (
        "from odoo import models\n"
        "\n"
        f"{IMPORT} (\n"
        "    transfer_modifiers_to_node,\n"
        "    transfer_node_to_modifiers,\n"
        ")\n"
        "\n"
        "\n"
        "class A(models.Model):\n"
        "    _inherit = 'res.partner'\n"
        "\n"
        "    def get_view(self, view_id=None, view_type='form', **options):\n"
        "        result = super().get_view(view_id, view_type, **options)\n"
        "        for node in self._nodes(result):\n"
        "            node.set('readonly', '1')\n"
        "            modifiers = {}\n"
        "            transfer_node_to_modifiers(node, modifiers)\n"
        "            transfer_modifiers_to_node(modifiers, node)\n"
        "        tree = result['tree']\n"
        "        # each column\n"
        "        for node in tree.xpath('./*'):\n"
        "            modifiers = {}\n"
        "            transfer_node_to_modifiers(node, modifiers)\n"
        "            transfer_modifiers_to_node(modifiers, node)\n"
        "        for node in self._nodes(result):\n"
        "            modifiers = {}\n"
        "            transfer_node_to_modifiers(node, modifiers)\n"
        "            transfer_modifiers_to_node(modifiers, node)\n"
        "        return result\n"
    )
    read_back = (
        f"{IMPORT} transfer_node_to_modifiers, transfer_modifiers_to_node\n"
        "\n"
        "\n"
        "def hidden(node):\n"
        "    modifiers = {}\n"
        "    transfer_node_to_modifiers(node, modifiers)\n"
        "    return modifiers.get('invisible')\n"
        "\n"
        "\n"
        "def normalize(node):\n"
        "    mods = {}\n"
        "    # one JSON attribute for the client\n"
        "    transfer_node_to_modifiers(node, mods)\n"
        "    transfer_modifiers_to_node(mods, node)\n"
        "    node.set('force_save', '1')\n"
    )
    module = _module_with(tmp_path, {"a.py": round_trip, "b.py": read_back})
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "a.py").read_text() == (
        "from odoo import models\n"
        "\n"
        "\n"
        "class A(models.Model):\n"
        "    _inherit = 'res.partner'\n"
        "\n"
        "    def get_view(self, view_id=None, view_type='form', **options):\n"
        "        result = super().get_view(view_id, view_type, **options)\n"
        "        for node in self._nodes(result):\n"
        "            node.set('readonly', '1')\n"
        "        tree = result['tree']\n"
        "        # each column\n"
        "        for node in self._nodes(result):\n"
        "            pass\n"
        "        return result\n"
    )  # the loop over lxml's query went with its round trip; another call may do something: kept
    assert (module / "b.py").read_text() == (
        f"{IMPORT} transfer_node_to_modifiers\n"
        "\n"
        "\n"
        "def hidden(node):\n"
        "    modifiers = {}\n"
        "    transfer_node_to_modifiers(node, modifiers)\n"
        "    return modifiers.get('invisible')\n"
        "\n"
        "\n"
        "def normalize(node):\n"
        "    # one JSON attribute for the client\n"
        "    node.set('force_save', '1')\n"
    )
    assert _said(migrated.findings) == {("b.py", "removed-transfer-node-to-modifiers", 6, "error")}
    assert migrated.steps[0].rules_applied["removed-view-modifiers"] == 2


def test_16_to_17_literal_modifiers_become_the_attributes(tmp_path: Path) -> None:
    source = (
        "# built views\n"
        "\n"
        "import json\n"
        "\n"
        "from lxml import etree\n"
        "\n"
        "\n"
        "def build(parent, name):\n"
        "    etree.SubElement(parent, 'field', {'name': name, 'modifiers': '{\"required\": true}'})\n"
        "    etree.SubElement(\n"
        "        parent,\n"
        "        'button',\n"
        "        {\n"
        "            'name': 'open',\n"
        "            'modifiers': json.dumps({'invisible': [('state', '!=', 'draft')], 'readonly': True}),\n"
        "        },\n"
        "    )\n"
        "    etree.Element('field', name=name, modifiers=json.dumps({'column_invisible': True}))\n"
        '    parent.set("modifiers", \'{"invisible": [["count", ">", 0]]}\')\n'
    )
    module = _module_with(tmp_path, {"views.py": source})
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "views.py").read_text() == (
        "# built views\n"
        "\n"
        "from lxml import etree\n"
        "\n"
        "\n"
        "def build(parent, name):\n"
        "    etree.SubElement(parent, 'field', {'name': name, 'required': 'True'})\n"
        "    etree.SubElement(\n"
        "        parent,\n"
        "        'button',\n"
        "        {\n"
        "            'name': 'open',\n"
        "            'invisible': \"state != 'draft'\",\n"
        "            'readonly': 'True',\n"
        "        },\n"
        "    )\n"
        "    etree.Element('field', name=name, column_invisible=\"True\")\n"
        '    parent.set("invisible", "count > 0")\n'
    )
    assert _said(migrated.findings) == set()
    assert migrated.steps[0].rules_applied["removed-view-modifiers"] == 4


def test_16_to_17_modifiers_not_rewritten_are_said_at_their_line(tmp_path: Path) -> None:
    source = (
        "import json\n"
        "\n"
        "\n"
        "def build(node, name, attrs):\n"
        "    node.set('modifiers', json.dumps(attrs))\n"
        "    options = {'name': name, 'modifiers': '{\"invisible\": [[\"s_%s\", \"=\", 1]]}' % name}\n"
        "    seen = json.loads(node.attrib.get('modifiers', '{}'))\n"
        "    both = {'invisible': '1', 'modifiers': '{\"invisible\": true}'}\n"
        "    context = {'modifiers': '{\"invisible\": \"context.get(\\'x\\')\"}'}\n"
        "    two = node.set('modifiers', '{\"invisible\": true, \"required\": true}')\n"
        "    return options, seen, both, context, two\n"
    )
    module = _module_with(tmp_path, {"views.py": source})
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "views.py").read_text() == source
    assert _said(migrated.findings) == {
        ("views.py", "removed-view-modifiers", line, "warning") for line in (5, 6, 7, 8, 9, 10)
    }
    assert "removed-view-modifiers" not in migrated.steps[0].rules_applied


def test_the_removed_functions_are_found_on_17(tmp_path: Path) -> None:
    code = f"{IMPORT} simplify_modifiers\n\n\ndef f(m):\n    simplify_modifiers(m)\n"
    _module(tmp_path, "m", ["base"], [], {"__init__.py": "from . import a\n", "a.py": code})
    assert [(f.code, f.line) for f in _static(tmp_path, "m", "16.0") if f.source == "static"] == []
    found = [(f.code, f.line, f.severity) for f in _static(tmp_path, "m", "17.0") if f.source == "static"]
    assert ("removed-simplify-modifiers", 1, "error") in found


def test_16_to_17_a_guarded_import_of_the_functions_is_left_to_its_fallback(tmp_path: Path) -> None:
    """Importing them inside a try whose except catches the ImportError does not fail on 17.0: the
    module's fallback runs there, so nothing is said ("importing it fails the install" was false)
    nor changed. An except of another error does not guard it."""
    guarded = (
        "try:\n"
        f"    {IMPORT} transfer_modifiers_to_node, transfer_node_to_modifiers\n"
        "except ImportError:\n"
        "    transfer_node_to_modifiers = transfer_modifiers_to_node = None\n"
        "\n"
        "\n"
        "def normalize(node):\n"
        "    if transfer_node_to_modifiers:\n"
        "        modifiers = {}\n"
        "        transfer_node_to_modifiers(node, modifiers)\n"
        "        transfer_modifiers_to_node(modifiers, node)\n"
    )
    unguarded = guarded.replace("except ImportError:", "except ValueError:")
    module = _module_with(tmp_path, {"a.py": guarded, "b.py": unguarded})
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "a.py").read_text() == guarded
    assert {(path, line) for path, _, line, _ in _said(migrated.findings)} == {("b.py", 4), ("b.py", 8)}

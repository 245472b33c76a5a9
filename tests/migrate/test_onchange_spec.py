"""16.0 -> 17.0: onchange() is given 17.0's _get_fields_spec(), not 16.0's flat _onchange_spec()."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.migrate import migrate

TEST = """class T(TransactionCase):
    def test_positional(self):
        spec = self.env["hr.employee"].new({})._onchange_spec()
        self.assertEqual(spec.get("firstname"), "1")
        record = self.env["hr.employee"].new({})
        updates = record.onchange({}, ["firstname"], spec)
        return updates

    def test_keywords(self):
        return self.partner.onchange(
            values={},
            field_name=["vat"],
            field_onchange=self.partner._onchange_spec(view_info),
        )

    def test_rebound(self):
        spec = self.env["hr.employee"]._onchange_spec()
        spec = {"name": "1"}
        return self.record.onchange({}, "name", spec)

    def test_own(self, spec):
        return self.record.onchange({}, "name", spec)
"""


def test_onchange_is_given_the_fields_spec(tmp_path: Path) -> None:
    module = tmp_path / "naming"
    (module / "tests").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'name': 'n', 'version': '16.0.1.0.0', 'depends': ['hr']}\n")
    (module / "tests" / "test_x.py").write_text(TEST)
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "tests" / "test_x.py").read_text() == TEST.replace(
        'record.onchange({}, ["firstname"], spec)',
        'record.onchange({}, ["firstname"], record._get_fields_spec())',
    ).replace(
        'field_name=["vat"],\n            field_onchange=self.partner._onchange_spec(view_info)',
        'field_names=["vat"],\n            fields_spec=self.partner._get_fields_spec(view_info)',
    )
    # the spec read by the test itself stays 16.0's; a spec bound to something else or a
    # parameter is not known to be one
    assert migrated.steps[0].rules_applied["changed-onchange-spec"] == 2
    lines = sorted(f.line or 0 for f in migrated.findings if f.code == "changed-onchange-spec")
    assert lines == [6, 10]

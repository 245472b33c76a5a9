"""The Odoo log parser on real Odoo 18 logs (shared recordings and our own), with pinned expectations."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from odoo_tools.findings import Finding
from odoo_tools.odoo_log import OdooLogReport, ProgressTracker, kinds, parse_odoo_log
from tests.odoo.variants import REPO, make_variant

LOGS = REPO / "fixtures" / "odoo_logs"
SHARED = LOGS / "shared"


@dataclass(frozen=True)
class Expect:
    kind: str
    path: str
    line: int | None
    excerpt: str
    severity: str = "error"
    module: str = ""


def only_finding(report: OdooLogReport) -> Finding:
    assert len(report.findings) == 1, [f.model_dump() for f in report.findings]
    return report.findings[0]


def check(report: OdooLogReport, expect: Expect, module: str) -> None:
    finding = only_finding(report)
    assert finding.source == "odoo"
    got = (finding.kind, finding.module, finding.path, finding.line, finding.severity)
    assert got == (expect.kind, expect.module or module, expect.path, expect.line, expect.severity)
    assert expect.excerpt in finding.message
    assert finding.hint


SHARED_CASES = {
    "10-broken-badview-clone.log": Expect(
        kinds.VIEW_VALIDATION,
        "lab_demo/views/lab_demo_views.xml",
        3,
        'Field "does_not_exist" does not exist in model "lab.demo.item"',
    ),
    "10-broken-missingdep-clone.log": Expect(
        kinds.MISSING_DEPENDENCY,
        "lab_demo/__manifest__.py",
        None,
        'depends on module "lab_missing_dependency"',
    ),
    "10-broken-syntax-clone.log": Expect(
        kinds.PYTHON_SYNTAX, "lab_demo/models/lab_demo_item.py", 9, "SyntaxError: '(' was never closed"
    ),
    "11-broken-unknown-module-name-clone.log": Expect(
        kinds.UNKNOWN_MODULE, "", None, "lab_no_such_module", module="lab_no_such_module"
    ),
    "36-test-failing-test-install.log": Expect(
        kinds.TEST_FAILURE,
        "lab_demo/tests/test_lab_demo.py",
        8,
        "AssertionError: 1 != 2 : lab: deliberate failure",
    ),
}


@pytest.mark.parametrize("name", sorted(SHARED_CASES))
def test_shared_broken_logs_give_one_finding_at_file_line(name: str) -> None:
    # the recorded paths say /srv/addons, which does not exist here: mapping goes by module name
    report = parse_odoo_log((SHARED / name).read_text(), roots=[Path("/nonexistent")], modules=["lab_demo"])
    check(report, SHARED_CASES[name], "lab_demo")


def test_an_invalid_module_name_on_19_is_an_unknown_module_not_a_missing_file() -> None:
    """Odoo 19 raises FileNotFoundError("Invalid module name: ...") for a folder named with '-'
    (recorded on a real 19.0); it was reported as a missing data file without a place."""
    log = (SHARED / "19-invalid-module-name-hyphen.log").read_text(encoding="utf-8")
    report = parse_odoo_log(log, roots=[Path("/nonexistent")], modules=["my-hyphen-zz"])
    finding = only_finding(report)
    assert (finding.kind, finding.severity) == (kinds.UNKNOWN_MODULE, "error")
    assert "Invalid module name: my-hyphen-zz" in finding.message


def test_view_error_names_the_view_model_and_field() -> None:
    text = (SHARED / "10-broken-badview-clone.log").read_text()
    report = parse_odoo_log(text, roots=[], modules=["lab_demo"])
    finding = report.findings[0]
    assert (finding.xml_id, finding.model, finding.field) == (
        "lab_demo_item_view_form",
        "lab.demo.item",
        "does_not_exist",
    )
    assert report.registry_failed and report.loaded_modules == ["lab_demo"] and report.completed_modules == []
    assert "View error context" not in finding.message


def test_view_error_line_is_refined_to_the_element_when_the_file_is_here(tmp_path: Path) -> None:
    views = tmp_path / "lab_demo" / "views"
    views.mkdir(parents=True)
    (tmp_path / "lab_demo" / "__manifest__.py").write_text("{'name': 'Lab'}")
    body = ["<odoo>", "", '  <record id="lab_demo_item_view_form" model="ir.ui.view">', "    <form>"]
    body += [
        '      <field name="name"/>',
        '      <field name="does_not_exist"/>',
        "    </form>",
        "  </record>",
    ]
    (views / "lab_demo_views.xml").write_text("\n".join(body) + "\n</odoo>\n")
    text = (SHARED / "10-broken-badview-clone.log").read_text()
    finding = parse_odoo_log(text, roots=[tmp_path], modules=["lab_demo"]).findings[0]
    assert (finding.path, finding.line) == ("lab_demo/views/lab_demo_views.xml", 6)


def test_syntax_error_traceback_is_trimmed_to_the_addon_frames_first() -> None:
    report = parse_odoo_log(
        (SHARED / "10-broken-syntax-clone.log").read_text(), roots=[], modules=["lab_demo"]
    )
    lines = report.findings[0].traceback.splitlines()
    assert "/srv/addons/lab_demo/__init__.py" in lines[0]
    assert "decorator.py" not in report.findings[0].traceback
    assert lines[-1] == "SyntaxError: '(' was never closed"


def test_unknown_module_name_exit_zero_is_still_reported() -> None:
    text = (SHARED / "11-broken-unknown-module-name-clone.log").read_text()
    report = parse_odoo_log(text, roots=[], modules=["lab_no_such_module"])
    assert report.invalid_module_names == ["lab_no_such_module"]
    assert not report.registry_failed and report.loaded_modules == []


def test_passing_and_failing_test_runs() -> None:
    ok = parse_odoo_log(
        (SHARED / "31-test-install-lab_demo-test-enable.log").read_text(), roots=[], modules=["lab_demo"]
    )
    assert ok.findings == []
    assert [(t.name, t.status) for t in ok.tests] == [("TestLabDemo.test_create_item", "pass")]
    assert ok.tests_total is not None and (ok.tests_total.failures, ok.tests_total.tests) == (0, 1)
    bad = parse_odoo_log(
        (SHARED / "36-test-failing-test-install.log").read_text(), roots=[], modules=["lab_demo"]
    )
    [test] = bad.tests
    assert (test.module, test.test_class, test.method, test.status) == (
        "lab_demo",
        "TestLabDemo",
        "test_create_item",
        "fail",
    )
    assert (test.path, test.line, test.message) == (
        "lab_demo/tests/test_lab_demo.py",
        8,
        "AssertionError: 1 != 2 : lab: deliberate failure",
    )
    assert bad.tests_by_module["lab_demo"].failures == 1
    assert bad.tests_total is not None and bad.tests_total.failures == 1


@pytest.mark.parametrize(
    "name",
    [
        "01-base-install-lab_base.log",
        "02-lab_demo-install-fresh-db.log",
        "24-bench-upgrade-lab_demo-r1.log",
        "45-upgrade-module-not-installed.log",
    ],
)
def test_clean_runs_have_no_findings(name: str) -> None:
    report = parse_odoo_log((SHARED / name).read_text(), roots=[], modules=["lab_demo"])
    assert report.findings == [] and not report.registry_failed
    assert report.odoo_version == "18.0-20241005"


def test_loaded_modules_tell_upgrade_from_silent_noop() -> None:
    upgraded = parse_odoo_log(
        (SHARED / "24-bench-upgrade-lab_demo-r1.log").read_text(), roots=[], modules=["lab_demo"]
    )
    noop = parse_odoo_log(
        (SHARED / "45-upgrade-module-not-installed.log").read_text(), roots=[], modules=["lab_demo"]
    )
    assert upgraded.loaded_modules == ["lab_demo"] and upgraded.completed_modules == ["lab_demo"]
    assert noop.loaded_modules == [] and noop.completed_modules == []


RECORDED_CASES = {
    "xml_syntax": Expect(
        kinds.XML_SYNTAX, "library_base/views/library_book_views.xml", 36, "Opening and ending tag mismatch"
    ),
    "access_model": Expect(
        kinds.DATA_IMPORT,
        "library_base/security/ir.model.access.csv",
        2,
        "No matching record found for external id 'model_library_bok' in field 'Model'",
    ),
    "access_column": Expect(
        kinds.DATA_IMPORT, "library_base/security/ir.model.access.csv", 1, "Invalid field name 'perm_wrte'"
    ),
    "missing_file": Expect(
        kinds.MISSING_DATA_FILE, "library_base/__manifest__.py", 18, "library_base/views/missing_file.xml"
    ),
    "external_dep": Expect(
        kinds.EXTERNAL_DEPENDENCY, "library_base/__manifest__.py", 20, "assista_no_such_package not installed"
    ),
    "import_error": Expect(
        kinds.PYTHON_IMPORT, "library_base/models/__init__.py", 2, "cannot import name 'library_author'"
    ),
    "xml_ref": Expect(
        kinds.XML_DATA,
        "library_base/views/library_menus.xml",
        10,
        "External ID not found in the system: library_base.library_menu_does_not_exist",
    ),
    "deprecation": Expect(
        kinds.DEPRECATION,
        "library_base/models/library_book.py",
        7,
        "'group_operator' is deprecated",
        "warning",
    ),
    "bad_view": Expect(
        kinds.VIEW_VALIDATION,
        "library_base/views/library_book_views.xml",
        35,  # the record starts at 14; the file here lets the parser find the element itself
        'Field "does_not_exist" does not exist in model "library.book"',
    ),
    "sql_constraint": Expect(
        kinds.SQL_CONSTRAINT,
        "library_base/data/library_data.xml",
        7,
        'duplicate key value violates unique constraint "library_book_isbn_unique"',
    ),
    "no_access": Expect(kinds.ACCESS_RULE, "", None, "['library.shelf'] have no access rules", "warning"),
    "test_fail": Expect(
        kinds.TEST_FAILURE,
        "library_base/tests/test_library_book.py",
        14,
        "AssertionError: 1 != 2 : deliberate",
    ),
    "test_error": Expect(
        kinds.TEST_ERROR, "library_base/tests/test_library_book.py", 14, "ValueError: deliberate error"
    ),
}


@pytest.mark.parametrize("variant", sorted(RECORDED_CASES))
def test_recorded_logs_of_broken_copies(variant: str, tmp_path: Path) -> None:
    make_variant(tmp_path, variant)
    report = parse_odoo_log((LOGS / f"{variant}.log").read_text(), roots=[tmp_path], modules=["library_base"])
    check(report, RECORDED_CASES[variant], "library_base")


def test_manifest_lines_point_at_the_offending_entry(tmp_path: Path) -> None:
    module = make_variant(tmp_path, "missing_file")
    lines = (module / "__manifest__.py").read_text().splitlines()
    finding = parse_odoo_log(
        (LOGS / "missing_file.log").read_text(), roots=[tmp_path], modules=["library_base"]
    )
    assert finding.findings[0].line is not None
    assert "views/missing_file.xml" in lines[finding.findings[0].line - 1]


def test_identifiers_from_data_errors(tmp_path: Path) -> None:
    make_variant(tmp_path, "xml_ref")
    ref = parse_odoo_log((LOGS / "xml_ref.log").read_text(), roots=[tmp_path], modules=["library_base"])
    assert ref.findings[0].xml_id == "library_base.library_menu_does_not_exist"
    csv = parse_odoo_log((LOGS / "access_model.log").read_text(), roots=[], modules=["library_base"])
    assert csv.findings[0].xml_id == "model_library_bok"
    shelf = parse_odoo_log((LOGS / "no_access.log").read_text(), roots=[], modules=["library_base"])
    assert shelf.findings[0].model == "library.shelf"
    assert "library_base.access_library_shelf" in shelf.findings[0].hint


def test_port_busy_is_recognised_from_the_uncaught_traceback() -> None:
    report = parse_odoo_log((LOGS / "port_busy.log").read_text(), roots=[], modules=["library_base"])
    assert report.port_busy
    check(report, Expect(kinds.PORT_BUSY, "", None, "Address already in use"), "")


def test_sql_noise_before_the_real_error_is_not_a_finding() -> None:
    report = parse_odoo_log((LOGS / "access_model.log").read_text(), roots=[], modules=["library_base"])
    assert [f.kind for f in report.findings] == [kinds.DATA_IMPORT]


def test_good_run_lists_passing_tests_only() -> None:
    report = parse_odoo_log((LOGS / "good.log").read_text(), roots=[], modules=["library_base"])
    assert report.findings == []
    assert {(t.name, t.status) for t in report.tests} == {
        ("TestLibraryBook.test_author_count", "pass"),
        ("TestLibraryBook.test_negative_pages", "pass"),
    }
    assert report.tests_total is not None and report.tests_total.tests == 2


def record(level: str, logger: str, message: str, db: str = "lab") -> str:
    return f"2026-11-21 05:15:12,994 15409 {level} {db} {logger}: {message} "


def failed_registry(traceback_body: str) -> str:
    """A load failure the way Odoo 18 logs it, around a traceback we write (for kinds not recorded)."""
    lines = [
        record("INFO", "odoo.modules.loading", "Loading module library_base (2/30)"),
        record("INFO", "odoo.modules.loading", "loading library_base/data/library_data.xml"),
        record("WARNING", "odoo.modules.loading", "Transient module states were reset"),
        record("ERROR", "odoo.modules.registry", "Failed to load registry"),
        record("CRITICAL", "odoo.service.server", "Failed to initialize database `lab`."),
        "Traceback (most recent call last):",
        '  File "/opt/odoo/odoo/modules/loading.py", line 226, in load_module_graph',
        "    load_data(env, idref, mode, kind='data', package=package)",
        traceback_body,
        record("INFO", "odoo.service.server", "Initiating shutdown"),
    ]
    return "\n".join(lines)


def test_sql_constraint_inside_a_data_file() -> None:
    text = failed_registry(
        '  File "/opt/odoo/odoo/sql_db.py", line 354, in execute\n'
        "    res = self._obj.execute(query, params)\n"
        "psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "
        '"library_book_isbn_uniq"\n'
        "DETAIL:  Key (isbn)=(123) already exists."
    )
    finding = only_finding(parse_odoo_log(text, roots=[], modules=["library_base"]))
    assert (finding.kind, finding.module, finding.path) == (
        kinds.SQL_CONSTRAINT,
        "library_base",
        "library_base/data/library_data.xml",
    )
    assert "library_book_isbn_uniq" in finding.message


def test_relaxng_schema_error_and_unknown_errors_keep_the_current_data_file() -> None:
    text = failed_registry(
        '  File "/opt/odoo/odoo/tools/convert.py", line 662, in convert_xml_import\n'
        "    relaxng.assert_(doc)\n"
        "lxml.etree.DocumentInvalid: Element odoo has extra content: record, line 3"
    )
    finding = only_finding(parse_odoo_log(text, roots=[], modules=["library_base"]))
    assert (finding.kind, finding.path) == (kinds.XML_SCHEMA, "library_base/data/library_data.xml")
    odd = failed_registry('  File "/opt/odoo/odoo/models.py", line 9, in f\n    x()\nKeyError: 42')
    finding = only_finding(parse_odoo_log(odd, roots=[], modules=["library_base"]))
    assert (finding.kind, finding.module, finding.message) == (
        kinds.REGISTRY_FAILURE,
        "library_base",
        "KeyError: 42",
    )


def test_view_warning_is_a_warning_with_the_view_identifiers() -> None:
    text = "\n".join(
        [
            record(
                "WARNING",
                "odoo.addons.base.models.ir_ui_view",
                "A <i> with fa class (fa fa-book) must have title",
            ),
            "View error context:",
            "{'file': '/srv/addons/library_base/views/library_book_views.xml',",
            " 'line': 4,",
            " 'name': 'library.book.form',",
            " 'view': ir.ui.view(312,),",
            " 'view.model': 'library.book',",
            " 'view.parent': ir.ui.view(),",
            " 'xmlid': 'library_book_view_form'}",
        ]
    )
    finding = only_finding(parse_odoo_log(text, roots=[], modules=["library_base"]))
    assert (finding.kind, finding.severity, finding.path) == (
        kinds.VIEW_WARNING,
        "warning",
        "library_base/views/library_book_views.xml",
    )
    assert (finding.xml_id, finding.model) == ("library_book_view_form", "library.book")
    assert finding.message.startswith("A <i> with fa class")


def test_deprecations_from_odoo_itself_are_not_the_users_to_fix() -> None:
    text = record("WARNING", "py.warnings", "/opt/odoo/odoo/http.py:10: DeprecationWarning: old API")
    assert parse_odoo_log(text, roots=[], modules=["library_base"]).findings == []


def test_empty_and_garbage_input() -> None:
    assert parse_odoo_log("", roots=[], modules=[]) == OdooLogReport()
    report = parse_odoo_log("not a log\n\x00binary\n", roots=[], modules=["x"])
    assert report.findings == [] and report.tests == []


def test_traceback_before_any_log_line_is_reported() -> None:
    text = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/opt/odoo/odoo-bin", line 5, in <module>',
            "    import odoo",
            "ModuleNotFoundError: No module named 'snap7'",
        ]
    )
    finding = only_finding(parse_odoo_log(text, roots=[], modules=["library_base"]))
    assert finding.message == "ModuleNotFoundError: No module named 'snap7'"


def test_error_in_setup_class_is_a_test_error() -> None:
    text = "\n".join(
        [
            record(
                "ERROR",
                "odoo.addons.library_base.tests.test_library_book",
                "ERROR: setUpClass (odoo.addons.library_base.tests.test_library_book.TestLibraryBook)",
            ),
            "Traceback (most recent call last):",
            '  File "/srv/addons/library_base/tests/test_library_book.py", line 9, in setUpClass',
            "    cls.book = cls.env['library.nope'].create({})",
            "KeyError: 'library.nope'",
        ]
    )
    report = parse_odoo_log(text, roots=[], modules=["library_base"])
    [test] = report.tests
    assert (test.test_class, test.method, test.status, test.line) == (
        "TestLibraryBook",
        "setUpClass",
        "error",
        9,
    )
    assert report.findings[0].kind == kinds.TEST_ERROR


def test_progress_tracker_follows_loading_lines() -> None:
    tracker = ProgressTracker()
    seen = [
        p
        for line in (SHARED / "02-lab_demo-install-fresh-db.log").read_text().splitlines()
        if (p := tracker.feed(line)) is not None
    ]
    assert seen[:2] == [(0, 1), (1, 1)]
    assert (2, 13) in seen and seen[-1][1] == 13
    assert tracker.feed("Traceback (most recent call last):") is None
    line = record("INFO", "odoo.modules.loading", "Loading module x (3/20)")
    assert tracker.feed(line) == (3, 20)
    assert tracker.feed(line) is None  # no move, no report
    assert tracker.module == "x"


def test_paths_under_our_roots_map_even_for_unknown_module_names(tmp_path: Path) -> None:
    module = make_variant(tmp_path, "syntax_error")
    text = (SHARED / "10-broken-syntax-clone.log").read_text()
    local = text.replace(
        "/srv/addons/lab_demo/models/lab_demo_item.py", str(module / "models" / "library_book.py")
    )
    report = parse_odoo_log(local, roots=[tmp_path], modules=[])
    assert report.findings[0].path == "library_base/models/library_book.py"
    site = text.replace("/srv/addons/lab_demo/models", "/venv/lib/python3.11/site-packages/lab_demo/models")
    assert parse_odoo_log(site, roots=[], modules=["lab_demo"]).findings[0].path == "lab_demo/__init__.py"


def test_a_handled_error_logged_as_warning_stays_a_warning() -> None:
    text = "\n".join(
        [
            record(
                "WARNING",
                "odoo.modules.loading",
                "Module library_base demo data failed to install, installed without demo data",
            ),
            "Traceback (most recent call last):",
            '  File "/opt/odoo/odoo/tools/convert.py", line 537, in _tag_root',
            "    f(rec)",
            "ValueError: External ID not found in the system: library_base.nope",
        ]
    )
    finding = only_finding(parse_odoo_log(text, roots=[], modules=["library_base"]))
    assert (finding.severity, finding.module) == ("warning", "library_base")
    assert finding.message.startswith("Module library_base demo data failed to install")
    assert finding.message.endswith("External ID not found in the system: library_base.nope")


def test_recorder_lines_between_runs_are_not_part_of_an_error() -> None:
    text = (SHARED / "10-broken-syntax-clone.log").read_text()
    error = "SyntaxError: '(' was never closed\n"
    head, tail = text.split(error)
    framed = (
        head + error + "# assista-odoo upgrade: odoo-bin -d x -u lab_demo\n" + tail
    )  # right after the error
    report = parse_odoo_log(framed, roots=[], modules=["lab_demo"])
    assert [f.message for f in report.findings] == ["SyntaxError: '(' was never closed"]  # once, no trailer


# Real logs of every supported series (recorded by tests/odoo/test_real_odoo.py with
# ASSISTA_RECORD_ODOO_LOGS): what each case's log must give, on every series.
SERIES_LOGS = sorted(p for p in LOGS.glob("*/*.log") if p.parent.name != "shared")
MODEL = "library_base/models/library_book.py"
SERIES_CASES: dict[str, tuple[str, str, int | None]] = {
    "syntax_error": (kinds.PYTHON_SYNTAX, MODEL, 16),
    "import_error": (kinds.PYTHON_IMPORT, "library_base/models/__init__.py", 2),
    "xml_syntax": (kinds.XML_SYNTAX, "library_base/views/library_book_views.xml", 36),
    "xml_ref": (kinds.XML_DATA, "library_base/views/library_menus.xml", 10),
    "missing_file": (kinds.MISSING_DATA_FILE, "library_base/__manifest__.py", 18),
    "access_model": (kinds.DATA_IMPORT, "library_base/security/ir.model.access.csv", 2),
    "access_column": (kinds.DATA_IMPORT, "library_base/security/ir.model.access.csv", 1),
    "external_dep": (kinds.EXTERNAL_DEPENDENCY, "library_base/__manifest__.py", 20),
    "missing_dep": (kinds.MISSING_DEPENDENCY, "library_base/__manifest__.py", 11),
    "bad_view": (kinds.VIEW_VALIDATION, "library_base/views/library_book_views.xml", 35),
    "sql_constraint": (kinds.SQL_CONSTRAINT, "library_base/data/library_data.xml", 7),
    "test_fail_test": (kinds.TEST_FAILURE, "library_base/tests/test_library_book.py", 14),
    "unknown_module": (kinds.UNKNOWN_MODULE, "", None),
}
CLEAN = {"good", "good_test", "good_upgrade", "deprecation", "no_access"}  # no error finding
FAILURE_KINDS = {
    "syntax_error",
    "bad_view",
    "missing_dep",
    "xml_syntax",
    "access_model",
    "missing_file",
    "external_dep",
    "test_fail_test",
    "unknown_module",
}


def test_every_series_has_a_log_of_each_failure_kind() -> None:
    series = {p.parent.name for p in SERIES_LOGS}
    assert "18.0" in series
    for name in sorted(series):
        assert {p.stem for p in SERIES_LOGS if p.parent.name == name} >= FAILURE_KINDS, name


@pytest.mark.parametrize("log", SERIES_LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_series_logs_give_kind_file_and_line(log: Path, tmp_path: Path) -> None:
    series, case = log.parent.name, log.stem
    text = log.read_text(encoding="utf-8")
    assert text.startswith("# cmd: odoo-bin ") and text.rstrip("\n").splitlines()[-1].startswith(
        "# exit_code="
    )
    variant = case.rsplit("_test", 1)[0] if case.endswith("_test") else case.removesuffix("_upgrade")
    make_variant(tmp_path, "good" if case == "unknown_module" else variant, series=series)
    modules = ["library_nope"] if case == "unknown_module" else ["library_base"]
    report = parse_odoo_log(text, roots=[tmp_path], modules=modules)
    errors = [(f.kind, f.path, f.line) for f in report.findings if f.severity == "error"]
    if case in CLEAN:
        assert errors == [], errors
        assert report.odoo_version.startswith(series)
    else:
        assert SERIES_CASES[case] in errors, errors


TEAM_MODEL = (
    "from odoo import fields, models\n\n\nclass ResPartner(models.Model):\n"
    '    _inherit = "res.partner"\n\n    team_zz_id = fields.Many2one(string="Team")\n'
)


def test_an_unknown_comodel_assertion_on_19_points_at_the_field(tmp_path: Path) -> None:
    """Real Odoo 19: the field setup asserts (in odoo/orm, no frame of the addon); it was reported
    without a place. 16-18 only warn about it (see test_log_warnings)."""
    (tmp_path / "team_zz" / "models").mkdir(parents=True)
    (tmp_path / "team_zz" / "__manifest__.py").write_text("{'name': 'Team', 'depends': ['base']}")
    (tmp_path / "team_zz" / "models" / "res_partner.py").write_text(TEAM_MODEL)
    log = (SHARED / "19-unknown-comodel-assertion.log").read_text(encoding="utf-8")
    report = parse_odoo_log(log, roots=[tmp_path], modules=["team_zz"])
    errors = [(f.kind, f.path, f.line) for f in report.findings if f.severity == "error"]
    assert errors == [(kinds.REGISTRY_FAILURE, "team_zz/models/res_partner.py", 7)]


# Real Odoo 18 logs of third-party modules broken by one line (names and paths rewritten): Odoo names
# the record's first line (or no place at all); the guilty line is inside it. Stand-in files put
# each guilty text at the line it had in the real module.
THIRD_PARTY = {  # case: (file, {line: text}, kind, line of the break)
    "data_field": (
        "lab_estate/data/property_type_data.xml",
        {5: '<record id="property_type_house" model="real.estate.property.type">',
         6: '<field name="nme">H</field>'},
        kinds.XML_DATA,
        6,
    ),
    "view_model": (
        "lab_estate/views/property_views.xml",
        {8: '<record id="view_property_form" model="ir.ui.view">',
         10: '<field name="model">real.estate.propertyy</field>'},
        kinds.VIEW_VALIDATION,
        10,
    ),
    "xpath": (
        "lab_names/views/res_partner.xml",
        {2: '<record id="view_partner_simple_form_firstname" model="ir.ui.view">',
         6: """<xpath expr="//field[@id='individuel']" position="attributes">"""},
        kinds.VIEW_VALIDATION,
        6,
    ),
    "inherit_view_ref": (
        "lab_docs/views/res_config.xml",
        {3: '<record id="view_knowledge_configuration" model="ir.ui.view">',
         6: '<field name="inherit_id" ref="base.res_config_setting_view_form" />'},
        kinds.XML_DATA,
        6,
    ),
    "inherit_model": (
        "lab_names/models/res_partner.py",
        {17: "class ResPartner(models.Model):", 18: '    _inherit = "res.partnr"'},
        kinds.REGISTRY_FAILURE,
        18,
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(THIRD_PARTY))
def test_third_party_failures_point_at_the_guilty_line_not_the_record(case: str, tmp_path: Path) -> None:
    rel, lines, kind, line = THIRD_PARTY[case]
    module = rel.split("/")[0]
    (tmp_path / module).mkdir()
    (tmp_path / module / "__manifest__.py").write_text("{'depends': ['base']}")
    target = tmp_path / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines.get(n, "") for n in range(1, max(lines) + 3)))
    log = (SHARED / f"18-thirdparty-{case}.log").read_text(encoding="utf-8")
    report = parse_odoo_log(log, roots=[tmp_path], modules=[module])
    errors = [(f.kind, f.path, f.line) for f in report.findings if f.severity == "error"]
    assert errors == [(kind, rel, line)]


SETUP_FIELDS = (
    '  File "/opt/odoo/odoo/modules/registry.py", line 323, in setup_models\n'
    "    model._setup_fields()\n"
    '  File "/opt/odoo/odoo/models.py", line 3378, in _setup_fields\n'
    "    field.setup(self)\n"
)
MOVE_MODEL = """from odoo import api, fields, models


class AccountMove(models.Model):
    _inherit = "account.move"

    refund_method = fields.Selection(selection_add=[("lines", "Some lines")])

    @api.depends(
        "line_ids", "line_ids.blocked"
    )
    def _compute_move_blocked(self):
        pass

    blocked = fields.Boolean(compute="_compute_move_blocked")
"""


@pytest.mark.parametrize(
    ("exception", "line"),
    [
        # a selection_add onto a field the new series removed (Odoo 17 refund_method)
        ("AssertionError: Field account.move.refund_method without selection", 7),
        # a depends path through a field the new series removed (Odoo 18 account.move.line.blocked)
        (
            "ValueError: Wrong @depends on '_compute_move_blocked' (compute method of field "
            "account.move.blocked). Dependency field 'blocked' not found in model account.move.line.",
            9,
        ),
    ],
)
def test_field_setup_errors_point_at_the_modules_definition(
    tmp_path: Path, exception: str, line: int
) -> None:
    """Odoo raises these from its own code while setting fields up: no frame of the module. The
    module's definition (the field, the @depends decorator) is where the fix goes."""
    module = tmp_path / "lab_blocking"
    (module / "models").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'name': 'b', 'depends': ['account']}")
    (module / "models" / "account_move.py").write_text(MOVE_MODEL)
    text = failed_registry(SETUP_FIELDS + exception)
    finding = only_finding(parse_odoo_log(text, roots=[tmp_path], modules=["lab_blocking"]))
    assert (finding.module, finding.path, finding.line) == (
        "lab_blocking",
        "lab_blocking/models/account_move.py",
        line,
    )

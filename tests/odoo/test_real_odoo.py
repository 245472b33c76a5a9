"""Opt-in: validations against a real Odoo (skipped unless ``ASSISTA_TEST_ODOO_BIN`` is set).

    ASSISTA_TEST_ODOO_BIN=/path/to/odoo-bin          # required
    ASSISTA_TEST_ODOO_PYTHON=/path/to/odoo/venv/python  # Odoo's interpreter (default: ours)
    PGHOST / PGPORT / PGUSER / PGPASSWORD            # PostgreSQL, libpq defaults otherwise
    ASSISTA_RECORD_ODOO_LOGS=fixtures/odoo_logs       # optional: keep each case's sanitized log in
                                                      # <dir>/<series>/<case>.log (recorder only)

The series (16.0 to 19.0) is read from odoo-bin, and the addon is adapted to it (tests/odoo/variants.py);
expectations that differ per series follow it.

Each case installs a copy of ``fixtures/addons/library_base`` broken in one way (tests/odoo/variants.py)
and checks what ``odoo_validate`` says: the kind, file and line real Odoo gives for it. All cases
share one template cache, so the dependencies (base) are installed once; every database created is
dropped at the end, templates included.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from odoo_tools.odoo_log import kinds
from odoo_tools.runs._odoo_bin import RunSpec, build_argv, child_env, run_odoo
from odoo_tools.runs._pg import Pg, PgParams, new_db_name
from odoo_tools.runs._result import ValidationResult
from odoo_tools.runs._validate import OdooRunner, RunnerConfig
from tests.odoo.runner_support import verdict
from tests.odoo.variants import copy_loan, make_variant

ODOO_BIN = os.environ.get("ASSISTA_TEST_ODOO_BIN", "")
ODOO_PYTHON = os.environ.get("ASSISTA_TEST_ODOO_PYTHON") or None
RECORD = os.environ.get("ASSISTA_RECORD_ODOO_LOGS", "")

pytestmark = [
    pytest.mark.odoo,
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(not ODOO_BIN, reason="set ASSISTA_TEST_ODOO_BIN to run against a real Odoo"),
]


class RealOdoo:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache_dir = root / "cache"
        self.prefix = f"assista_real{secrets.token_hex(2)}_"
        self.pg = Pg(PgParams.resolve(), prefix=self.prefix)
        self.series = asyncio.run(self.runner(root).odoo()).series
        self.recorded: set[str] = set()

    def runner(self, addons: Path, *more_roots: Path, warm: bool = False) -> OdooRunner:
        config = RunnerConfig(
            addons_paths=[addons, *more_roots],
            cache_dir=self.cache_dir,
            pg=PgParams.resolve(),
            odoo_bin=Path(ODOO_BIN),
            odoo_python=ODOO_PYTHON,
            db_prefix=self.prefix,
            timeout=900.0,
            warm=warm,
        )
        return OdooRunner(config)

    def variant(self, name: str) -> Path:
        root = self.root / "addons" / f"{name}_{secrets.token_hex(2)}"
        make_variant(root, name, series=self.series)
        return root

    def validate(
        self, variant: str, action: str = "install", modules: tuple[str, ...] = ("library_base",)
    ) -> ValidationResult:
        addons = self.variant(variant)
        result = self.runner(addons).validate_sync(action, list(modules))  # type: ignore[arg-type]
        if RECORD:
            name = variant if action == "install" else f"{variant}_{action}"
            self.record(name if modules == ("library_base",) else "unknown_module", addons, result)
        return result

    def record(self, name: str, addons: Path, result: ValidationResult) -> None:
        """Keep the last odoo-bin run of a case, sanitized like fixtures/odoo_logs (see its README)."""
        if name in self.recorded:
            return
        self.recorded.add(name)
        text = Path(result.log_path).read_text(encoding="utf-8")
        if "# assista-odoo " not in text:  # refused before running Odoo: ask Odoo itself
            text = self.plain_run(addons, [m.module for m in result.modules])
        last = text[text.rindex("# assista-odoo ") :]
        header, _, body = last.partition("\n")
        argv = header.split(": ", 1)[1].split()
        bin_at = next(i for i, arg in enumerate(argv) if arg.endswith("odoo-bin"))
        body, _, tail = body.rpartition("# exit_code=")
        code, seconds = re.match(r"(-?\d+) seconds=([\d.]+)", tail).groups()  # type: ignore[union-attr]
        command = " ".join(argv[bin_at + 1 :])
        text = f"# cmd: odoo-bin {command}\n{body}# exit_code={code} wall_seconds={seconds}\n"
        target = Path(RECORD) / self.series / f"{name}.log"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(sanitize(text, addons, self.cache_dir), encoding="utf-8")

    def plain_run(self, addons: Path, modules: list[str]) -> str:
        """odoo-bin -i alone into a clone of a template of this session (the log, framed like ours)."""
        runner = self.runner(addons)
        odoo = asyncio.run(runner.odoo())
        database = new_db_name("record", self.prefix)
        templates = [t.name for t in runner.cache.templates() if not t.orphan]
        assert templates, "record the good case first: its template is cloned"
        runner.cache._clone_into(templates[0], database)
        try:
            spec = RunSpec(database, install=modules)
            argv = build_argv(
                odoo, spec, addons_paths=[addons], data_dir=runner.cache.data_dir, pg=runner.config.pg
            )
            env = child_env(runner.config.pg, os.environ, runner.cache.data_dir)
            run = asyncio.run(run_odoo(argv, env=env, timeout=900.0))
        finally:
            runner.cache.drop_database(database)
        head = f"# assista-odoo install: {' '.join(argv)}\n"
        return f"{head}{run.log}# exit_code={run.returncode} seconds={run.seconds:.2f}\n"


def sanitize(text: str, addons: Path, cache_dir: Path) -> str:
    """Rewrite this machine's paths to the fixtures' conventional ones."""
    odoo_src = Path(ODOO_BIN).resolve().parent
    venv = Path(ODOO_PYTHON or "/nonexistent/bin/python").parent.parent
    for local, public in [
        (str(addons), "/srv/addons"),
        (str(cache_dir / "odoo-data"), "/var/lib/odoo"),
        (str(cache_dir), "/var/lib/odoo"),
        (str(odoo_src), "/opt/odoo"),
        (str(venv), "/opt/odoo-venv"),
    ]:
        text = text.replace(local, public)
    text = re.sub(r"/\S*/\.pyenv/versions/[\d.]+/lib/python(\d\.\d+)", r"/usr/lib/python\1", text)
    return re.sub(r"assista_real[0-9a-f]{4}_", "lab_", text)


@pytest.fixture(scope="module")
def odoo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealOdoo]:
    real = RealOdoo(tmp_path_factory.mktemp("real_odoo"))
    yield real
    real.runner(real.root).cache.clear()
    leftovers = real.pg.list_ours()
    for name in leftovers:
        real.pg.drop(name)
    assert leftovers == [], f"databases left behind: {leftovers}"


def test_good_module_installs_with_progress(odoo: RealOdoo) -> None:
    progress: list[tuple[int, int, str]] = []
    addons = odoo.variant("good")
    result = odoo.runner(addons).validate_sync(
        "install", ["library_base"], on_progress=lambda k, n, m: progress.append((k, n, m))
    )
    if RECORD:
        odoo.record("good", addons, result)
    assert result.ok, result.summary
    assert any(k > 0 and "library_base" in message for k, _n, message in progress), progress
    assert [(m.module, m.state) for m in result.modules] == [("library_base", "installed")]
    assert result.findings == [] and result.template.status in ("built", "hit")
    assert result.odoo_version.startswith(odoo.series)


# kind, file, line: what real Odoo says for each broken copy (the recorded logs agree), on every series
# unless SERIES_BROKEN says otherwise
BROKEN = {
    "syntax_error": (kinds.PYTHON_SYNTAX, "library_base/models/library_book.py", 16),
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
}


SERIES_BROKEN: dict[str, dict[str, tuple[str, str, int]]] = {}


@pytest.mark.parametrize("variant", sorted(BROKEN))
def test_broken_module_is_reported_at_file_and_line(odoo: RealOdoo, variant: str) -> None:
    result = odoo.validate(variant)
    assert not result.ok
    assert result.modules[0].state != "installed"
    places = {(f.kind, f.path, f.line) for f in result.findings}
    assert SERIES_BROKEN.get(odoo.series, {}).get(variant, BROKEN[variant]) in places, [
        f.model_dump(include={"kind", "path", "line", "message"}) for f in result.findings
    ]
    assert Path(result.log_path).is_file()


def test_access_rule_warning_does_not_fail_the_install(odoo: RealOdoo) -> None:
    result = odoo.validate("no_access")
    assert result.modules[0].state == "installed"
    warning = [f for f in result.findings if f.kind == kinds.ACCESS_RULE]
    assert warning and warning[0].model == "library.shelf" and warning[0].severity == "warning"


def test_deprecation_warning_points_into_the_addon(odoo: RealOdoo) -> None:
    if odoo.series in ("16.0", "17.0"):
        pytest.skip("group_operator is deprecated from 18.0 on")
    result = odoo.validate("deprecation")
    assert result.modules[0].state == "installed"
    [warning] = [f for f in result.findings if f.kind == kinds.DEPRECATION]
    assert (warning.path, warning.severity) == ("library_base/models/library_book.py", "warning")
    assert "group_operator" in warning.message


def test_failing_test_is_reported_per_test_with_file_and_line(odoo: RealOdoo) -> None:
    result = odoo.validate("test_fail", action="test")
    assert not result.ok
    assert result.modules[0].state == "installed"  # failing tests do not roll the install back
    by_name = {t.name: t for t in result.tests}
    failed = by_name["TestLibraryBook.test_author_count"]
    assert (failed.status, failed.path, failed.line) == (
        "fail",
        "library_base/tests/test_library_book.py",
        14,
    )
    assert "1 != 2" in failed.message
    assert by_name["TestLibraryBook.test_negative_pages"].status == "pass"


def test_passing_tests(odoo: RealOdoo) -> None:
    result = odoo.validate("good", action="test")
    assert result.ok, result.summary
    assert {t.status for t in result.tests} == {"pass"} and len(result.tests) == 2


def test_unknown_module_name_is_not_a_success(odoo: RealOdoo) -> None:
    result = odoo.validate("good", modules=("library_nope",))
    assert not result.ok
    assert result.modules[0].state != "installed"
    assert kinds.UNKNOWN_MODULE in {f.kind for f in result.findings}


def test_upgrade_of_a_good_module(odoo: RealOdoo) -> None:
    result = odoo.validate("good", action="upgrade")
    assert result.ok, result.summary
    assert result.modules[0].state == "installed"


def test_template_is_reused_after_editing_the_module_under_validation(odoo: RealOdoo) -> None:
    addons = odoo.variant("good")
    runner = odoo.runner(addons)
    first = runner.validate_sync("install", ["library_base"])
    model = addons / "library_base" / "models" / "library_book.py"
    model.write_text(model.read_text() + "\n# edited between two validations\n")
    second = runner.validate_sync("install", ["library_base"])
    assert first.ok and second.ok
    assert second.template.status == "hit" and second.template.name == first.template.name


def test_editing_a_dependency_builds_a_new_template(odoo: RealOdoo) -> None:
    addons = odoo.root / "addons" / f"loan_{secrets.token_hex(2)}"
    make_variant(addons, "good", series=odoo.series)
    copy_loan(addons, odoo.series)
    runner = odoo.runner(addons)
    first = runner.validate_sync("install", ["library_loan"])
    assert first.ok, first.summary
    loan = addons / "library_loan" / "models" / "library_loan.py"
    loan.write_text(loan.read_text() + "\n# the module under validation changed\n")
    second = runner.validate_sync("install", ["library_loan"])
    assert second.ok and second.template.status == "hit" and second.template.name == first.template.name
    book = addons / "library_base" / "models" / "library_book.py"
    book.write_text(book.read_text() + "\n# a dependency changed\n")
    third = runner.validate_sync("install", ["library_loan"])
    assert third.ok and third.template.status == "built" and third.template.name != first.template.name


def _module(root: Path, name: str, manifest: str, files: dict[str, str] | None = None) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__manifest__.py").write_text(manifest)
    (folder / "__init__.py").write_text("")
    for rel, text in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def test_an_auto_install_module_of_another_root_never_fails_this_roots_runs(odoo: RealOdoo) -> None:
    """Issue I: a template that pulled in another root's auto_install module was reused by a run
    without that root, and Odoo said "Some modules are not loaded ... ['X']"."""
    addons = odoo.variant("good")
    glue = odoo.root / "addons" / f"glue_{secrets.token_hex(2)}"
    _module(
        glue,
        "glue_auto_zz",
        "{'name': 'Glue', 'depends': ['base'], 'auto_install': True, 'license': 'LGPL-3'}",
    )
    with_glue = odoo.runner(addons, glue).validate_sync("install", ["library_base"])
    assert with_glue.ok, with_glue.findings
    without_glue = odoo.runner(addons).validate_sync("install", ["library_base"])
    assert without_glue.ok, without_glue.findings
    assert without_glue.template.name != with_glue.template.name


def test_a_module_named_with_a_hyphen_installs(odoo: RealOdoo) -> None:
    root = odoo.root / "addons" / f"hyphen_{secrets.token_hex(2)}"
    _module(root, "my-hyphen-zz", "{'name': 'Hyphen', 'depends': ['base'], 'license': 'LGPL-3'}")
    result = odoo.runner(root).validate_sync("install", ["my-hyphen-zz"])
    if odoo.series not in ("16.0", "17.0", "18.0"):  # 19: "Invalid module name" (plain odoo-bin: exit 255)
        assert not result.ok and result.template.status == "skipped"
        assert [f.kind for f in result.findings] == [kinds.UNKNOWN_MODULE]
        return
    assert result.ok, result.findings
    assert [(m.module, m.state) for m in result.modules] == [("my-hyphen-zz", "installed")]


def test_a_manifest_version_of_another_series_is_refused_at_its_line(odoo: RealOdoo) -> None:
    """17 and 18 refuse "16.0.1.0.0" (plain odoo-bin 17: "Module ...: invalid manifest", exit 255)."""
    if odoo.series not in ("17.0", "18.0"):
        pytest.skip("16 takes any version, 19 any of 2 to 5 numbers")
    root = odoo.root / "addons" / f"version_{secrets.token_hex(2)}"
    _module(root, "ported_zz", "{'name': 'Ported',\n 'version': '16.0.1.0.0',\n 'depends': ['base']}")
    result = odoo.runner(root).validate_sync("install", ["ported_zz"])
    assert not result.ok and result.template.status == "skipped"
    places = {(f.kind, f.path, f.line) for f in result.findings}
    assert (kinds.REGISTRY_FAILURE, "ported_zz/__manifest__.py", 2) in places, result.findings


TEAM_MODEL = """from odoo import fields, models


class ResPartner(models.Model):
    _inherit = "res.partner"

    team_zz_id = fields.Many2one(string="Team")
"""


def test_a_field_with_an_unknown_comodel_is_a_warning_at_its_line(odoo: RealOdoo) -> None:
    root = odoo.root / "addons" / f"team_{secrets.token_hex(2)}"
    _module(
        root,
        "team_zz",
        "{'name': 'Team', 'depends': ['base'], 'license': 'LGPL-3'}",
        {"__init__.py": "from . import models\n", "models/__init__.py": "from . import res_partner\n",
         "models/res_partner.py": TEAM_MODEL},
    )  # fmt: skip
    result = odoo.runner(root).validate_sync("install", ["team_zz"])
    if odoo.series not in ("16.0", "17.0", "18.0"):  # from 19 an assertion: the install fails
        assert result.modules[0].state != "installed" and not result.ok
        places = {(f.kind, f.severity, f.path, f.line) for f in result.findings}
        expected = (kinds.REGISTRY_FAILURE, "error", "team_zz/models/res_partner.py", 7)
        assert expected in places, result.findings
        return
    assert result.modules[0].state == "installed" and result.ok
    places = {(f.kind, f.severity, f.path, f.line) for f in result.findings}
    assert (kinds.ODOO_WARNING, "warning", "team_zz/models/res_partner.py", 7) in places, result.findings


@pytest.mark.parametrize("variant", ["missing_dep", "external_dep"])
def test_what_odoo_refuses_before_installing_is_said_without_running_it(odoo: RealOdoo, variant: str) -> None:
    result = odoo.validate(variant)
    assert not result.ok and result.template.status == "skipped"
    assert "odoo" not in result.timings


# The warm worker: a fork of it answers exactly as a cold odoo-bin
WARM_CASES = [
    ("good", "install", "library_base"), ("good", "test", "library_base"),
    ("good", "upgrade", "library_base"), ("test_fail", "test", "library_base"),
    ("no_access", "install", "library_base"),
    ("deprecation", "install", "library_base"), ("good", "install", "library_nope"),
    *((variant, "install", "library_base") for variant in sorted(BROKEN)),
]  # fmt: skip


@pytest.mark.parametrize(("variant", "action", "module"), WARM_CASES)
def test_the_warm_worker_answers_as_a_cold_odoo_bin(
    odoo: RealOdoo, variant: str, action: str, module: str
) -> None:
    addons = odoo.variant(variant)
    cold = odoo.runner(addons).validate_sync(action, [module])  # type: ignore[arg-type]
    runner = odoo.runner(addons, warm=True)
    try:
        warm = runner.validate_sync(action, [module])  # type: ignore[arg-type]
        again = runner.validate_sync(action, [module])  # type: ignore[arg-type]
    finally:
        runner.close()
    assert cold.warm.status == "off"
    if cold.template.status == "skipped":  # refused up front: Odoo never ran
        assert warm.warm.status == "off"
    else:
        assert warm.warm.status == again.warm.status == "warm", (warm.warm, again.warm)
    assert verdict(warm) == verdict(cold) == verdict(again)

"""Fail fast: what Odoo refuses before ``-i`` is said without a database or a template build, at
the manifest line from its syntax tree; the dependency check never runs the project's code."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from odoo_tools.addons import discover_addons
from odoo_tools.odoo_log import kinds, manifest_entry_line, parse_odoo_log
from odoo_tools.runs import RunnerConfig, run_doctor
from odoo_tools.runs._externals import refused_externals
from odoo_tools.runs._pg import Pg
from odoo_tools.runs._preflight import preflight
from odoo_tools.runs._validate import OdooRunner
from odoo_tools.series import series_facts
from tests.odoo.runner_support import STUB_ODOO_BIN
from tests.odoo.variants import make_variant

MANIFEST_WITH_DESCRIPTION = '''{
    "name": "Reports",
    "description": """Exports with xlsxwriter_zz_missing, and the stock of
    each shelf.""",
    "depends": [
        "base",
        "stock_zz_missing",
    ],
    "external_dependencies": {
        "python": [
            "json",
            "xlsxwriter_zz_missing",
        ],
        "bin": ["no_such_binary_zz"],
    },
}
'''


@pytest.fixture
def stub_with_core(tmp_path: Path) -> Path:
    """The stand-in as an Odoo source checkout: odoo-bin next to odoo/addons (base, web)."""
    source = tmp_path / "odoo-src"
    shutil.copytree(STUB_ODOO_BIN.parent, source)
    for name, manifest in (
        ("base", "{'depends': []}"),
        ("web", "{'depends': ['base'], 'auto_install': True}"),
    ):
        (source / "odoo" / "addons" / name).mkdir(parents=True)
        (source / "odoo" / "addons" / name / "__manifest__.py").write_text(manifest)
    return source / "odoo-bin"


def _runner(pg: Pg, odoo_bin: Path, roots: list[Path], tmp_path: Path) -> OdooRunner:
    return OdooRunner(
        RunnerConfig(
            addons_paths=roots,
            cache_dir=tmp_path / "cache",
            odoo_bin=odoo_bin,
            odoo_python=sys.executable,
            db_prefix=pg.prefix,
            extra_env={"ASSISTA_STUB_DELAY": "0"},
        )
    )


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _reports_module(root: Path) -> Path:
    module = root / "reports_zz"
    module.mkdir(parents=True)
    (module / "__manifest__.py").write_text(MANIFEST_WITH_DESCRIPTION)
    return module


def test_manifest_lines_come_from_the_structure_not_the_first_mention(tmp_path: Path) -> None:
    manifest = _reports_module(tmp_path) / "__manifest__.py"
    assert manifest_entry_line(manifest, "external_dependencies", "xlsxwriter_zz_missing", "python") == 12
    assert manifest_entry_line(manifest, "external_dependencies", "no_such_binary_zz") == 14
    assert manifest_entry_line(manifest, "depends", "stock_zz_missing") == 7
    assert manifest_entry_line(manifest, "external_dependencies", "not_listed") == 9  # the key
    assert manifest_entry_line(manifest, "data", "x") is None


def test_a_logged_external_dependency_error_points_at_the_manifest_key(tmp_path: Path) -> None:
    _reports_module(tmp_path)
    log = (
        "2025-01-01 10:00:00,000 1 INFO db odoo.modules.loading: Loading module reports_zz (2/2) \n"
        "2025-01-01 10:00:00,000 1 CRITICAL db odoo.service.server: Failed to initialize database `db`.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/odoo/odoo/addons/base/models/ir_module.py", line 356, in check_external_dependencies\n'
        "    raise UserError(msg)\n"
        'odoo.exceptions.UserError: Unable to install module "reports_zz" because an external dependency '
        "is not met: External dependency xlsxwriter_zz_missing not installed: No package metadata\n"
    )
    [finding] = parse_odoo_log(log, roots=[tmp_path], modules=["reports_zz"]).findings
    assert (finding.kind, finding.path, finding.line) == (
        kinds.EXTERNAL_DEPENDENCY,
        "reports_zz/__manifest__.py",
        12,
    )


@pytest.mark.anyio
async def test_preflight_says_what_odoo_would_refuse_at_the_manifest_line(tmp_path: Path) -> None:
    _reports_module(tmp_path)
    addons = discover_addons([tmp_path])
    env = {"PATH": os.environ["PATH"]}
    findings = await preflight(addons, ["reports_zz"], python=sys.executable, roots=[tmp_path], env=env)
    got = sorted((f.kind, f.path, f.line, f.severity) for f in findings)
    assert got == [
        (kinds.EXTERNAL_DEPENDENCY, "reports_zz/__manifest__.py", 12, "error"),
        (kinds.EXTERNAL_DEPENDENCY, "reports_zz/__manifest__.py", 14, "error"),
    ]  # without Odoo's own addons, missing module dependencies are left to Odoo


@pytest.mark.anyio
async def test_from_19_a_module_folder_named_with_a_hyphen_is_refused_whatever_is_installed(
    tmp_path: Path,
) -> None:
    """Odoo 19 lists the addons path before any -i and fails on 'my-hyphen-zz' (real 19.0 run:
    FileNotFoundError: Invalid module name, exit 255), even when installing another module."""
    for name in ("my-hyphen-zz", "other_zz"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__manifest__.py").write_text("{'depends': []}")
    addons = discover_addons([tmp_path])
    env = {"PATH": os.environ["PATH"]}
    for target in ("my-hyphen-zz", "other_zz"):
        findings = await preflight(
            addons, [target], python=None, roots=[tmp_path], env=env, facts=series_facts("19.0")
        )
        got = [(f.kind, f.module, f.path, f.severity) for f in findings]
        assert got == [(kinds.UNKNOWN_MODULE, "my-hyphen-zz", "my-hyphen-zz/__manifest__.py", "error")]
        assert "Invalid module name: my-hyphen-zz" in findings[0].message
        assert (
            await preflight(
                addons, [target], python=None, roots=[tmp_path], env=env, facts=series_facts("18.0")
            )
            == []
        )


@pytest.mark.anyio
async def test_a_manifest_version_odoo_refuses_fails_fast_at_the_version_line(tmp_path: Path) -> None:
    """Real Odoo 17: a module with version "18.0.1.0.0" anywhere in the addons path fails every
    install ("Module library_loan: invalid manifest" / "Invalid version"); we said only that the
    dependencies' template failed, without a place."""
    (tmp_path / "ported_zz").mkdir()
    (tmp_path / "ported_zz" / "__manifest__.py").write_text(
        "{\n    'name': 'P',\n    'version': '18.0.1.0.0',\n}"
    )
    (tmp_path / "other_zz").mkdir()
    (tmp_path / "other_zz" / "__manifest__.py").write_text("{'version': '1.0'}")
    addons = discover_addons([tmp_path])
    env = {"PATH": os.environ["PATH"]}
    for target in ("ported_zz", "other_zz"):
        findings = await preflight(
            addons, [target], python=None, roots=[tmp_path], env=env, facts=series_facts("17.0")
        )
        got = [(f.kind, f.module, f.path, f.line) for f in findings]
        assert got == [(kinds.REGISTRY_FAILURE, "ported_zz", "ported_zz/__manifest__.py", 3)]
        assert "Invalid version '18.0.1.0.0'" in findings[0].message
        for accepting in (16, 18):
            assert (
                await preflight(
                    addons,
                    [target],
                    python=None,
                    roots=[tmp_path],
                    env=env,
                    facts=series_facts(f"{accepting}.0"),
                )
                == []
            )
        # 19 reads it, then makes that one module uninstallable (real 19.0: state uninstallable, exit 0)
        findings = await preflight(
            addons, [target], python=None, roots=[tmp_path], env=env, facts=series_facts("19.0")
        )
        placed = [(f.kind, f.path, f.line) for f in findings]
        expected: list[tuple[str, str, int | None]] = (
            [(kinds.UNKNOWN_MODULE, "ported_zz/__manifest__.py", 3)] if target == "ported_zz" else []
        )
        assert placed == expected


@pytest.mark.anyio
async def test_the_dependency_probe_never_imports_from_the_addons_roots(tmp_path: Path) -> None:
    root = tmp_path / "addons"
    package = root / "evil_pkg"
    package.mkdir(parents=True)
    marker = tmp_path / "imported"
    (package / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (package / "sub.py").write_text("")
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(root)}
    refused = await refused_externals(sys.executable, [root], ["evil_pkg.sub", "evil_pkg"], [], env)
    assert not marker.exists()
    assert set(refused) == {"evil_pkg.sub", "evil_pkg"}  # Odoo cannot import them either


@pytest.mark.anyio
async def test_doctor_never_imports_addon_code_even_from_inside_an_addons_root(
    addons: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "imported"
    (addons / "library_base" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    manifest = addons / "library_base" / "__manifest__.py"
    manifest.write_text(
        manifest.read_text().replace(
            '"installable": True,',
            '"installable": True,\n    "external_dependencies": {"python": ["library_base.models"]},',
        )
    )
    monkeypatch.chdir(addons)  # before: find_spec("library_base.models") imported library_base
    config = RunnerConfig(
        addons_paths=[addons],
        cache_dir=tmp_path / "cache",
        odoo_bin=STUB_ODOO_BIN,
        odoo_python=sys.executable,
    )
    report = await run_doctor(config, ["library_base"])
    assert not marker.exists()
    [check] = [c for c in report.checks if c.name == "python-dependencies"]
    assert not check.ok and "library_base.models (needed by library_base)" in check.detail


@pytest.mark.anyio
async def test_a_missing_external_dependency_fails_before_any_database(
    pg: Pg, stub_odoo_bin: Path, tmp_path: Path
) -> None:
    root = tmp_path / "addons"
    make_variant(root, "external_dep")
    runner = _runner(pg, stub_odoo_bin, [root], tmp_path)
    result = await runner.validate("install", ["library_base"])
    assert not result.ok and result.template.status == "skipped"
    assert [(f.kind, f.path, f.line) for f in result.findings] == [
        (kinds.EXTERNAL_DEPENDENCY, "library_base/__manifest__.py", 20)
    ]
    assert result.modules[0].state == "uninstalled"
    assert "odoo" not in result.timings and pg.list_ours() == []  # no odoo-bin, no database
    assert "assista_no_such_package" in _read(result.log_path)


@pytest.mark.anyio
async def test_missing_and_unknown_modules_fail_fast_when_odoos_addons_are_known(
    pg: Pg, stub_with_core: Path, tmp_path: Path
) -> None:
    root = tmp_path / "addons"
    make_variant(root, "missing_dep")
    runner = _runner(pg, stub_with_core, [root], tmp_path)
    missing = await runner.validate("install", ["library_base"])
    assert not missing.ok and missing.template.status == "skipped"
    assert [(f.kind, f.path, f.line) for f in missing.findings] == [
        (kinds.MISSING_DEPENDENCY, "library_base/__manifest__.py", 11)
    ]
    unknown = await runner.validate("install", ["library_nope"])
    assert [(m.module, m.state) for m in unknown.modules] == [("library_nope", "absent")]
    assert [f.kind for f in unknown.findings] == [kinds.UNKNOWN_MODULE]
    assert pg.list_ours() == []
    make_variant(root, "good")  # and a good module still installs with the stand-in's core known
    try:
        good = await runner.validate("install", ["library_base"])
    finally:
        runner.wait_idle()
        runner.cache.clear()
    assert good.ok, good.findings
    assert good.template.status == "built"

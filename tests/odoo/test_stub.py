"""The stand-in odoo-bin against real PostgreSQL rows and against our log parser.

It must behave like Odoo 18 at the process boundary, so each case checks the exit code, the rows in
``ir_module_module`` and what ``parse_odoo_log`` makes of its stderr (the same kinds, files and lines
as the real logs in fixtures/odoo_logs for the same broken copies).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg2
import pytest

from odoo_tools.odoo_log import OdooLogReport, ProgressTracker, kinds, parse_odoo_log
from tests.odoo.variants import REPO, make_variant
from tests.services import skip_missing_service

STUB = REPO / "fixtures" / "odoo_stub" / "odoo-bin"
ADDONS = REPO / "fixtures" / "addons"


def _admin() -> psycopg2.extensions.connection:
    try:
        conn = psycopg2.connect(dbname="postgres")
    except psycopg2.OperationalError as exc:  # pragma: no cover - depends on the machine
        skip_missing_service(f"PostgreSQL not reachable: {exc}")
    conn.autocommit = True
    return conn


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Run:
    def __init__(self, proc: subprocess.CompletedProcess[str], modules: list[str], roots: list[Path]) -> None:
        self.code = proc.returncode
        self.stderr = proc.stderr
        self.report: OdooLogReport = parse_odoo_log(proc.stderr, roots=roots, modules=modules)


class Stub:
    """Runs the stand-in on databases with a private prefix, and drops them all afterwards."""

    def __init__(self) -> None:
        self.admin = _admin()
        self.prefix = f"assista_stubt_{secrets.token_hex(3)}_"

    def db(self, name: str = "db") -> str:
        return self.prefix + name

    def run(self, *args: str, addons: Path = ADDONS, modules: tuple[str, ...] = ()) -> Run:
        argv = [sys.executable, str(STUB), f"--addons-path={addons}", "--stop-after-init", *args]
        env = {**os.environ, "ASSISTA_STUB_DELAY": "0"}
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120, check=False)
        return Run(proc, list(modules), [addons])

    def states(self, db: str) -> dict[str, str]:
        with psycopg2.connect(dbname=db) as conn, conn.cursor() as cr:
            cr.execute("SELECT name, state FROM ir_module_module")
            states = dict(cr.fetchall())
        conn.close()
        return states

    def exists(self, db: str) -> bool:
        with self.admin.cursor() as cr:
            cr.execute("SELECT 1 FROM pg_database WHERE datname = %s", (db,))
            return cr.fetchone() is not None

    def drop_all(self) -> None:
        with self.admin.cursor() as cr:
            cr.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (self.prefix + "%",))
            for (name,) in cr.fetchall():
                cr.execute(f'DROP DATABASE "{name}"')
        self.admin.close()


@pytest.fixture
def stub() -> Iterator[Stub]:
    helper = Stub()
    yield helper
    helper.drop_all()


@pytest.fixture
def broken(tmp_path: Path) -> Callable[[str], Path]:
    def make(variant: str) -> Path:
        root = tmp_path / variant
        make_variant(root, variant, for_stub=True)
        return root

    return make


def test_version_and_bad_options() -> None:
    version = subprocess.run(
        [sys.executable, str(STUB), "--version"], capture_output=True, text=True, check=False
    )
    assert (version.returncode, version.stdout.strip()) == (0, "Odoo Server 18.0")
    bad = subprocess.run(
        [sys.executable, str(STUB), "--no-such-flag"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "no such option: --no-such-flag" in bad.stderr
    nodir = subprocess.run(
        [sys.executable, str(STUB), "--addons-path=/nonexistent/addons"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert nodir.returncode == 2 and "no such directory" in nodir.stderr


def test_install_into_a_new_database_creates_it_and_installs_the_closure(stub: Stub) -> None:
    db = stub.db()
    run = stub.run("-d", db, "-i", "library_loan", modules=("library_loan",))
    assert run.code == 0, run.stderr
    states = stub.states(db)
    assert {n: states[n] for n in ("base", "web", "library_base", "library_loan")} == dict.fromkeys(
        ("base", "web", "library_base", "library_loan"), "installed"
    )
    assert states["library_broken"] == "uninstalled"  # listed by "updating modules list", not installed
    assert run.report.findings == [] and not run.report.registry_failed
    assert run.report.loaded_modules == ["base", "library_base", "library_loan"]  # base: "init db"
    tracker = ProgressTracker()
    progress = [p for line in run.stderr.splitlines() if (p := tracker.feed(line)) is not None]
    assert progress[-1] == (4, 4)


def test_every_line_is_in_odoos_record_format(stub: Stub) -> None:
    run = stub.run("-d", stub.db(), "-i", "library_base")
    records = [line for line in run.stderr.splitlines() if line and not line.startswith("Running as user")]
    assert records and all(line.endswith(" ") and line[:4].isdigit() for line in records)


# The stand-in's findings for each broken copy: same kind, file and line as real Odoo 18 gave.
STATIC_CASES = {
    "syntax_error": (kinds.PYTHON_SYNTAX, "library_base/models/library_book.py", 16),
    "import_error": (kinds.PYTHON_IMPORT, "library_base/models/__init__.py", 2),
    "xml_syntax": (kinds.XML_SYNTAX, "library_base/views/library_book_views.xml", 36),
    "missing_file": (kinds.MISSING_DATA_FILE, "library_base/__manifest__.py", 18),
    "access_model": (kinds.DATA_IMPORT, "library_base/security/ir.model.access.csv", 2),
    "access_column": (kinds.DATA_IMPORT, "library_base/security/ir.model.access.csv", 1),
    "external_dep": (kinds.EXTERNAL_DEPENDENCY, "library_base/__manifest__.py", 20),
    "missing_dep": (kinds.MISSING_DEPENDENCY, "library_base/__manifest__.py", 11),
    "bad_view": (kinds.VIEW_VALIDATION, "library_base/views/library_book_views.xml", 35),
}


@pytest.mark.parametrize("variant", sorted(STATIC_CASES))
def test_broken_install_into_existing_database_fails_255_and_rolls_back(
    variant: str, stub: Stub, broken: Callable[[str], Path]
) -> None:
    db = stub.db()
    assert stub.run("-d", db).code == 0  # an initialised database, as a template clone would be
    run = stub.run("-d", db, "-i", "library_base", addons=broken(variant), modules=("library_base",))
    assert run.code == 255, run.stderr
    assert run.report.registry_failed
    got = [(f.kind, f.path, f.line) for f in run.report.findings]
    assert got == [STATIC_CASES[variant]]
    assert "library_base" not in stub.states(db)  # rolled back, module list update included (as Odoo)
    assert f"Failed to initialize database `{db}`." in run.stderr


def test_failed_install_into_a_new_database_leaves_it_half_initialised(
    stub: Stub, broken: Callable[[str], Path]
) -> None:
    db = stub.db()
    run = stub.run("-d", db, "-i", "library_base", addons=broken("xml_syntax"), modules=("library_base",))
    assert run.code == 255
    assert stub.exists(db)
    states = stub.states(db)
    assert states["base"] == "installed" and "library_base" not in states


def test_unknown_module_name_exits_zero_with_a_warning(stub: Stub) -> None:
    db = stub.db()
    run = stub.run("-d", db, "-i", "library_nope")
    assert run.code == 0
    assert run.report.invalid_module_names == ["library_nope"]
    assert "library_nope" not in stub.states(db)


def test_update_of_a_module_that_is_not_installed_is_a_silent_noop(stub: Stub) -> None:
    db = stub.db()
    assert stub.run("-d", db).code == 0
    noop = stub.run("-d", db, "-u", "library_base")
    assert noop.code == 0 and noop.report.loaded_modules == [] and noop.report.findings == []
    assert stub.states(db)["library_base"] == "uninstalled"
    assert stub.run("-d", db, "-i", "library_base").code == 0
    update = stub.run("-d", db, "-u", "library_base")
    assert update.code == 0 and update.report.loaded_modules == ["library_base"]


@pytest.mark.parametrize(("variant", "status"), [("test_fail", "fail"), ("test_error", "error")])
def test_failing_tests_exit_1_and_the_module_stays_installed(
    variant: str, status: str, stub: Stub, broken: Callable[[str], Path]
) -> None:
    db = stub.db()
    args = ("-d", db, "-i", "library_base", "--test-enable", "--test-tags", "/library_base")
    port = ("--http-interface", "127.0.0.1", "--http-port", str(_free_port()))
    run = stub.run(*args, *port, addons=broken(variant), modules=("library_base",))
    assert run.code == 1, run.stderr
    results = {t.name: (t.status, t.path, t.line is not None) for t in run.report.tests}
    assert results == {
        "TestLibraryBook.test_author_count": (status, "library_base/tests/test_library_book.py", True),
        "TestLibraryBook.test_negative_pages": ("pass", "", False),
    }
    total = run.report.tests_total
    assert total is not None and (total.failures + total.errors, total.tests) == (1, 2)
    assert stub.states(db)["library_base"] == "installed"


def test_tests_of_other_modules_do_not_run_with_test_tags(stub: Stub) -> None:
    port = ("--http-interface", "127.0.0.1", "--http-port", str(_free_port()))
    run = stub.run(
        "-d", stub.db(), "-i", "library_loan", "--test-enable", "--test-tags", "/library_loan", *port
    )
    assert run.code == 0
    assert {t.module for t in run.report.tests} == {"library_loan"}


def test_busy_http_port_exits_1_with_odoos_error(stub: Stub) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        args = ("-d", stub.db(), "--test-enable", "--http-interface", "127.0.0.1", "--http-port", port)
        run = stub.run(*args)
    assert run.code == 1
    assert run.report.port_busy and run.report.findings[0].kind == kinds.PORT_BUSY


def test_database_settings_from_a_config_file(stub: Stub, tmp_path: Path) -> None:
    config = tmp_path / "odoo.conf"
    config.write_text(f"[options]\naddons_path = {ADDONS}\ndb_user = {_admin().info.user}\n")
    config.chmod(0o600)
    db = stub.db()
    proc = subprocess.run(
        [sys.executable, str(STUB), "-c", str(config), "-d", db, "-i", "library_base", "--stop-after-init"],
        capture_output=True,
        text=True,
        env={**os.environ, "ASSISTA_STUB_DELAY": "0"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert stub.states(db)["library_base"] == "installed"

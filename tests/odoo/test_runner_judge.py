"""Judging a run from the database and the log, on Odoo's real logs: exit code 0 is not success."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.odoo_log import parse_odoo_log
from odoo_tools.runs._result import NOT_INSTALLED, NOT_UPGRADED, ODOO_EXIT, is_ok, judge
from tests.odoo.variants import REPO

LOGS = REPO / "fixtures" / "odoo_logs" / "shared"  # the recordings, copied into the repository


def _log(name: str) -> str:
    return (LOGS / name).read_text()


def test_upgrade_of_a_module_that_is_not_installed_is_a_failure_despite_exit_0() -> None:
    log = _log("45-upgrade-module-not-installed.log")
    report = parse_odoo_log(log, roots=[Path("/srv/addons")], modules=["lab_demo"])
    outcomes, findings = judge(
        "upgrade", ["lab_demo"], {"lab_demo": "uninstalled"}, report,
        exit_code=0, timed_out=False, log=log, upgraded=report.loaded_modules,
    )  # fmt: skip
    assert [(o.state, o.ok) for o in outcomes] == [("uninstalled", False)]
    assert NOT_INSTALLED in {f.kind for f in findings}
    assert not is_ok(outcomes, findings, report.tests)


def test_installed_but_not_reloaded_by_u_is_not_an_upgrade() -> None:
    log = _log("45-upgrade-module-not-installed.log")
    report = parse_odoo_log(log, roots=[Path("/srv/addons")], modules=["lab_demo"])
    outcomes, findings = judge(
        "upgrade", ["lab_demo"], {"lab_demo": "installed"}, report,
        exit_code=0, timed_out=False, log=log, upgraded=report.loaded_modules,
    )  # fmt: skip
    assert not outcomes[0].ok
    assert NOT_UPGRADED in {f.kind for f in findings}


def test_unknown_module_name_is_explained_by_its_own_finding() -> None:
    log = _log("11-broken-unknown-module-name-clone.log")
    report = parse_odoo_log(log, roots=[Path("/srv/addons")], modules=["lab_no_such_module"])
    outcomes, findings = judge(
        "install", ["lab_no_such_module"], {"lab_no_such_module": "absent"}, report,
        exit_code=0, timed_out=False, log=log,
    )  # fmt: skip
    assert not outcomes[0].ok
    assert [f.kind for f in findings if f.severity == "error"] == ["unknown-module"]


def test_a_clean_install_log_with_installed_state_is_ok() -> None:
    log = _log("31-test-install-lab_demo-test-enable.log")
    report = parse_odoo_log(log, roots=[Path("/srv/addons")], modules=["lab_demo"])
    outcomes, findings = judge(
        "test", ["lab_demo"], {"lab_demo": "installed"}, report, exit_code=0, timed_out=False, log=log
    )
    assert is_ok(outcomes, findings, report.tests)


def test_failing_tests_fail_the_module_but_it_stays_installed() -> None:
    log = _log("36-test-failing-test-install.log")
    report = parse_odoo_log(log, roots=[Path("/srv/addons")], modules=["lab_demo"])
    module = report.tests[0].module if report.tests else "lab_demo"
    outcomes, findings = judge(
        "test", [module], {module: "installed"}, report, exit_code=1, timed_out=False, log=log
    )
    assert outcomes[0].state == "installed" and not outcomes[0].ok
    assert not is_ok(outcomes, findings, report.tests)
    assert ODOO_EXIT not in {f.kind for f in findings}  # the test failure explains exit code 1


def test_nonzero_exit_without_any_explanation_gets_a_finding_with_the_log_tail() -> None:
    log = "Traceback (most recent call last):\nsomething odd\n"
    report = parse_odoo_log("", roots=[], modules=["m"])
    outcomes, findings = judge(
        "install", ["m"], {"m": "installed"}, report, exit_code=3, timed_out=False, log=log
    )
    [finding] = findings
    assert finding.kind == ODOO_EXIT and "something odd" in finding.traceback
    assert not is_ok(outcomes, findings, [])


def test_an_error_logged_by_a_module_that_installs_anyway_is_a_warning() -> None:
    """Real Odoo 19 (third-party itx_security_shield): its install hooks log ERROR "Could not find
    libintegrity.so" and go on; plain odoo-bin says installed, exit 0. We said 'not ok'."""
    log = _log("19-install-hook-logs-error-installed.log")
    report = parse_odoo_log(log, roots=[Path("/srv/addons")], modules=["itx_security_shield"])
    installed = {"itx_security_shield": "installed"}
    outcomes, findings = judge("install", ["itx_security_shield"], installed, report, exit_code=0,
                               timed_out=False, log=log)  # fmt: skip
    assert is_ok(outcomes, findings, report.tests)
    logged = [f for f in findings if f.kind == "log-error"]
    assert len(logged) == 2 and {f.severity for f in logged} == {"warning"}
    assert "libintegrity.so" in logged[0].message
    # the same lines where Odoo did fail stay errors
    outcomes, findings = judge("install", ["itx_security_shield"], {"itx_security_shield": "uninstalled"},
                               report, exit_code=255, timed_out=False, log=log)  # fmt: skip
    assert {f.severity for f in findings if f.kind == "log-error"} == {"error"}
    assert not is_ok(outcomes, findings, report.tests)

"""JUnit XML: one test case per (module, check); it fails when a finding reaches --fail-on."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from odoo_tools.findings import Finding
from odoo_tools.lint.reporters._base import Report


def render(report: Report) -> str:
    suites = ET.Element("testsuites", name="assista-odoo check")
    suite = ET.SubElement(suites, "testsuite", name="assista-odoo check", time=f"{report.seconds:.3f}")
    tests = failures = 0
    for module in report.modules:
        mine = [f for f in report.findings if f.module == module]
        # A finding under no selected check still gets a case: nothing that fails the run is dropped.
        others_checks = sorted({report.check_of(f) for f in mine} - set(report.checks))
        for check in (*report.checks, *others_checks):
            found = [f for f in mine if report.check_of(f) == check]
            case = ET.SubElement(suite, "testcase", classname=module, name=f"{module}.{check}")
            tests += 1
            blocking = [f for f in found if report.blocking(f)]
            if blocking:
                failures += 1
                failure = ET.SubElement(
                    case, "failure", message=f"{len(blocking)} finding(s) at or above {report.fail_on}"
                )
                failure.text = "\n".join(_line(report, f) for f in blocking)
            others = [f for f in found if not report.blocking(f)]
            if others:
                ET.SubElement(case, "system-out").text = "\n".join(_line(report, f) for f in others)
    extra = [f for f in report.findings if f.module not in report.modules]
    if extra:
        case = ET.SubElement(suite, "testcase", classname="project", name="project")
        tests += 1
        if any(report.blocking(f) for f in extra):
            failures += 1
            ET.SubElement(case, "failure", message="project findings").text = "\n".join(
                _line(report, f) for f in extra
            )
        else:
            ET.SubElement(case, "system-out").text = "\n".join(_line(report, f) for f in extra)
    for line in report.incomplete:  # a linter that could not run is an error of the run, not a module's
        case = ET.SubElement(suite, "testcase", classname="environment", name="environment")
        tests += 1
        ET.SubElement(case, "error", message=line).text = line
    for element in (suites, suite):
        element.set("tests", str(tests))
        element.set("failures", str(failures))
        element.set("errors", str(len(report.incomplete)))
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _line(report: Report, finding: Finding) -> str:
    text = f"{report.where(finding)}: {finding.severity} [{finding.code}] {finding.message}"
    return text + (f" (hint: {finding.hint})" if finding.hint else "")

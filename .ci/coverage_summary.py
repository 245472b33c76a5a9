"""Combine the coverage data of a CI run, print the total and every file under 80 %, and fail
(exit 1) below the floor, ``fail_under`` in pyproject.toml's ``[tool.coverage.report]``.

``.ci/run`` runs the suite with ``COVERAGE_PROCESS_START`` set, so the ``.pth`` file coverage
installs starts measuring in pytest and in every Python process it starts (servers, CLI runs);
each writes its own data file, combined here.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import coverage

REPO = Path(__file__).resolve().parent.parent
LOW = 80.0


def main() -> int:
    cov = coverage.Coverage(config_file=str(REPO / "pyproject.toml"))
    cov.combine(keep=False)
    cov.save()
    cov.load()
    data = cov.get_data()
    if not data.measured_files():
        print("coverage: no data was collected (was COVERAGE_PROCESS_START set for the suite?)")
        return 1
    total = cov.report(file=io.StringIO(), skip_covered=False)
    low: list[tuple[float, str, int]] = []
    for path in sorted(data.measured_files()):
        if not Path(path).resolve().is_relative_to(REPO) or not Path(path).is_file():
            continue  # a copy a test made in a temporary folder
        _name, statements, _excluded, not_run, _text = cov.analysis2(path)
        if statements:
            percent = 100.0 * (len(statements) - len(not_run)) / len(statements)
            if percent < LOW:
                low.append((percent, str(Path(path).resolve().relative_to(REPO)), len(not_run)))
    print(f"coverage: {len(low)} file(s) under {LOW:.0f} % (percent, file, lines not run):")
    for percent, name, lines in sorted(low):
        print(f"coverage:   {percent:5.1f} %  {name}  ({lines} lines)")
    floor = float(cov.get_option("report:fail_under") or 0)  # type: ignore[arg-type]
    print(f"coverage: total {total:.1f} % of odoo_tools and assista_mcp (floor {floor:.1f} %)")
    if total < floor:
        print(f"coverage: {total:.1f} % is below the floor of {floor:.1f} %: add tests, do not lower it")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

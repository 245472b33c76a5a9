"""flake8 with OCA's configuration (or the project's), one process per batch of addons.

Every flake8 finding fails the check, as in OCA's pre-commit. Output is read through a custom
``--format`` with tab-separated fields (paths with tabs are not supported).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.lint._common import (
    PYTHON,
    ByModule,
    empty_result,
    failure_for_all,
    missing_package,
    owner_of,
    rel_path,
    run_linter,
    tail,
    tool_missing,
)
from odoo_tools.lint._configs import LintConfig
from odoo_tools.lint._inputs import exclude_option, linter_skips
from odoo_tools.lint._ruff import run_ruff

SOURCE = "flake8"
FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"
HINTS = {
    "E501": "Wrap the line (88 columns in OCA's style; a formatter such as black does it).",
    "F401": "Remove the unused import (or list it in __all__ if it is re-exported).",
    "F841": "Remove the unused variable, or use it.",
    "C901": "Split the function into smaller ones (OCA's limit is a complexity of 16).",
    "E999": "Fix the syntax error first: nothing else in this file was checked.",
}


def flake8_argv(addons: Sequence[Addon], config: LintConfig) -> list[str]:
    return [
        *PYTHON,
        "-m",
        "flake8",
        f"--config={config.flake8_config}",
        f"--format={FORMAT}",
        "--jobs=1",
        "--exit-zero",
        *exclude_option(linter_skips(addons)),  # a file no linter may open
        *(str(addon.path) for addon in addons),
    ]


async def run_flake8(addons: Sequence[Addon], config: LintConfig) -> ByModule:
    if not addons:
        return {}
    if config.python_linter == "ruff":  # the repository lints with ruff: run what it runs
        return await run_ruff(addons, config)
    if missing_package("flake8"):
        return tool_missing(addons, SOURCE, "flake8 is not installed, so it did not run.", "flake8")
    result = await run_linter(flake8_argv(addons, config))
    if result.timed_out or result.returncode != 0:
        return failure_for_all(
            addons,
            SOURCE,
            "linter-crashed",
            f"flake8 failed (exit {result.returncode}): {tail(result.stderr or result.stdout) or '-'}",
            f"Check the flake8 configuration {config.flake8_source or config.flake8_config}"
            " (an unknown option or plugin?).",
        )
    return parse_output(result.stdout, addons)


def parse_output(stdout: str, addons: Sequence[Addon]) -> ByModule:
    found = empty_result(addons)
    places: dict[str, tuple[Addon, str]] = {}  # a file's lines come together: resolved once
    for line in stdout.splitlines():
        parts = line.split("\t", 4)
        if len(parts) != 5:
            continue
        raw_path, row, col, code, text = parts
        if raw_path not in places:
            path = Path(raw_path).resolve()
            addon = owner_of(path, addons) or addons[0]
            places[raw_path] = (addon, rel_path(path, addon))
        addon, rel = places[raw_path]
        found[addon.name].append(
            Finding(
                source=SOURCE,
                code=code,
                severity="error",
                module=addon.name,
                path=rel,
                line=int(row),
                column=int(col),
                message=text,
                hint=HINTS.get(code, f"flake8 {code}; see https://www.flake8rules.com/rules/{code}.html"),
            )
        )
    return found

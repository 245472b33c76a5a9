"""Severity that means something.

Default grading (any repository): **error** = it breaks install, upgrade or runtime, or it is a
security bug; **warning** = a likely bug or something deprecated; **info** = style and formatting
(pycodestyle, XML formatting, manifest conventions).

OCA grading (a repository carrying OCA's configuration, or ``--profile oca``): what OCA's CI fails
on is an error (pylint-odoo's mandatory set, every flake8 message, every OCA hook message), the
rest a warning. The adapters grade the OCA way; ``regrade`` turns that into the default grading.
Our static checks grade themselves the same way in both profiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from odoo_tools.catalogue import entries
from odoo_tools.findings import SEVERITY_RANK, Finding, Severity
from odoo_tools.lint._common import INCOMPLETE_RUN
from odoo_tools.lint._configs import LintConfig, release
from odoo_tools.lint._imports import loaded_by_odoo
from odoo_tools.lint._old_ids import disabled_by_old_id
from odoo_tools.lint._sql_ids import ids_only
from odoo_tools.series import known_facts
from odoo_tools.sources import literal_file


def _graded(linter: str, severity: Severity) -> frozenset[str]:
    """The linter's codes our default grading gives ``severity``: the code catalogue's ``linter``
    entries (``odoo_tools/catalogue/codes/linter.toml``, where each group says why)."""
    return frozenset(
        e.code for e in entries(family="linter") if linter in e.emitted_by and e.severity == severity
    )


PYLINT_ERRORS = _graded("pylint", "error")
# pylint's "error" type used for things that do not break anything by themselves, and likely bugs.
PYLINT_WARNINGS = _graded("pylint", "warning")
PYLINT_STYLE = _graded("pylint", "info")
FLAKE8_ERRORS = _graded("flake8", "error")
FLAKE8_LIKELY_BUGS = ("F", "B", "W6")  # pyflakes (minus the unused-name ones), bugbear, deprecations
FLAKE8_STYLE = _graded("flake8", "info")
HOOK_ERRORS = _graded("oca-hooks", "error")
HOOK_STYLE = _graded("oca-hooks", "info")


UNDEFINED_NAME = frozenset({("pylint", "E0602"), ("flake8", "F821"), ("ruff", "F821")})

# The oca-odoo-pre-commit-hooks release that brought each check (read from the hooks' git tags;
# a check not listed is in every release a repository pins, 0.0.7 on). A repository whose CI runs
# an older release never sees the check: there it is an info, never a warning or an error.
HOOK_CHECK_SINCE: dict[str, tuple[int, ...]] = {
    "po-pretty-format": (0, 0, 26),
    "xml-oe-structure-missing-id": (0, 0, 26),
    "po-duplicate-model-definition": (0, 0, 29),
    "xml-duplicate-template-id": (0, 0, 29),
    "xml-record-missing-id": (0, 0, 29),
    "file-not-used": (0, 1, 2),
    "xml-deprecated-oe-chatter": (0, 1, 2),
    "xml-header-missing": (0, 1, 8),
    "xml-header-wrong": (0, 1, 8),
    "prefer-readme-rst": (0, 2, 4),
    "xml-field-bool-without-eval": (0, 2, 5),
    "xml-field-numeric-without-eval": (0, 2, 5),
    "xml-deprecated-qweb-directive-15": (0, 2, 17),  # t-esc/t-raw -> t-out
    "weblate-component-too-long": (0, 2, 18),
    "xml-tag-position": (0, 2, 23),  # after 0.2.22, at the latest in 0.2.27 (ours)
    "xml-deprecated-res-groups-category-id": (0, 2, 23),
}


@dataclass(frozen=True)
class HooksRelease:
    """The oca-odoo-pre-commit-hooks release a repository's CI runs, and who says so."""

    version: tuple[int, ...]
    who: str  # "the repository's pre-commit pins" / "OCA's repository template for 17.0 pins"


def hooks_ci_release(config: LintConfig, series: str | None) -> HooksRelease | None:
    """The repository's pre-commit pin, else OCA's template's for the series; None when unknown
    (a commit pin, or a series whose template pin the series facts do not know)."""
    if config.hooks_pin is not None:
        version = release(config.hooks_pin)
        return HooksRelease(version, "the repository's pre-commit pins") if version else None
    facts = known_facts(series)  # what OCA's template pins: a repository without its own pin follows it
    if facts is None or facts.oca_hooks_release is None:
        return None
    return HooksRelease(facts.oca_hooks_release, f"OCA's repository template for {facts.series} pins")


def regrade(
    findings: list[Finding],
    oca: bool,
    module_dir: Path | None = None,
    drift: frozenset[str] = frozenset(),
    hooks: HooksRelease | None = None,
    mandatory: frozenset[str] = frozenset(),
    *,
    in_place: bool = False,
) -> list[Finding]:
    """``findings`` as graded by the adapters (OCA's way), in the chosen grading. OCA's grading
    keeps pylint's and flake8's verdicts but grades OCA's hooks like the default does: the hooks
    we pin have checks (XML header style...) the versions OCA repositories pin never had. Nor does
    it fail on a message of a tool the repository pins older (``drift``) unless the message breaks
    something: the rule may not exist, or be narrower, in the pinned version. A hooks check newer
    than ``hooks`` (the release the repository's CI runs) is an info in both gradings. A pylint
    message the repository's own ``.pylintrc-mandatory`` names (``mandatory``) stays an error
    with an older pin too: the pinned pylint-odoo knows it, and fails the commit on it.

    ``in_place``: change the findings themselves instead of copies, for a caller that owns them
    (a warm check regrades every finding it read from the cache: copies cost 0.15 s of a 1 s run
    on 16,845 findings)."""
    out = []
    for finding in findings:
        if _silenced_by_old_id(finding, module_dir):
            continue  # the repository silenced it with the id its pinned pylint-odoo uses
        pinned_mandatory = finding.source == "pylint" and finding.symbol in mandatory
        if oca and finding.source != "oca-hooks" and (finding.source not in drift or pinned_mandatory):
            out.append(finding)
            continue
        severity = default_severity(finding)
        if oca and SEVERITY_RANK[finding.severity] < SEVERITY_RANK[severity]:
            severity = finding.severity  # never stricter than OCA's own verdict
        update: dict[str, object] = {"severity": severity}
        since = HOOK_CHECK_SINCE.get(finding.code) if finding.source == "oca-hooks" else None
        if since and hooks and hooks.version < since and severity != "info":
            update["severity"] = "info"
            update["message"] = finding.message + (
                f" (a check of oca-odoo-pre-commit-hooks {_dotted(since)}+; {hooks.who} "
                f"{_dotted(hooks.version)}, which does not report it)"
            )
        if (finding.source, finding.code) in UNDEFINED_NAME and module_dir is not None and not oca:
            path = module_dir.parent / finding.path
            if not loaded_by_odoo(module_dir, path):
                update["severity"] = "warning"
                update["message"] = finding.message + " (in a file the module never imports: a script?)"
        if finding.symbol == "sql-injection" and _ids_only(finding, oca, module_dir):
            update["severity"] = "warning"
            update["message"] = finding.message + " (only record ids are formatted into this query)"
        if (
            finding.code == "manifest-syntax-error"
            and finding.source == "oca-hooks"
            and _init_missing(module_dir)
        ):
            update["severity"] = "info"
            update["message"] = (  # the hook gives up without __init__.py; Odoo imports the folder fine
                "OCA's hook reads no manifest without an __init__.py beside it; Odoo loads a module "
                "without Python code (a namespace package) all the same."
            )
        if finding.symbol == "manifest-deprecated-key" and '"description"' in finding.message:
            update["message"] = (  # Odoo reads it fine; only OCA's convention prefers a README
                'OCA convention: describe the module in README.rst rather than the manifest\'s "description".'
            )
        if update == {"severity": finding.severity}:
            out.append(finding)
        elif in_place:
            for name, value in update.items():
                setattr(finding, name, value)  # as model_copy(update=): no validation, marked as set
            out.append(finding)
        else:
            out.append(finding.model_copy(update=update))
    return out


def _silenced_by_old_id(finding: Finding, module_dir: Path | None) -> bool:
    if finding.source != "pylint" or module_dir is None or not finding.path:
        return False
    return disabled_by_old_id(module_dir.parent / finding.path, finding.line, finding.code)


def _init_missing(module_dir: Path | None) -> bool:
    """True when the module has no ``__init__.py`` and its manifest is a readable dict."""
    if module_dir is None or (module_dir / "__init__.py").exists():
        return False
    return isinstance(literal_file(module_dir / "__manifest__.py"), dict)


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in version)


def _ids_only(finding: Finding, oca: bool, module_dir: Path | None) -> bool:
    if oca or module_dir is None or not finding.line:
        return False
    return ids_only(module_dir.parent / finding.path, finding.line)


def default_severity(finding: Finding) -> Severity:
    if finding.code in INCOMPLETE_RUN:
        return finding.severity
    if finding.source == "pylint":
        return _pylint(finding.symbol or finding.code, finding.code[:1])
    if finding.source in ("flake8", "ruff"):
        return _flake8(finding.code)
    if finding.source == "oca-hooks":
        return _hook(finding.code)
    return finding.severity


def _pylint(symbol: str, kind: str) -> Severity:
    if symbol in PYLINT_ERRORS or kind == "F":
        return "error"
    if symbol in PYLINT_STYLE:
        return "info"
    if symbol in PYLINT_WARNINGS:
        return "warning"
    if kind in ("E", "W"):
        return "warning"
    return "info"  # convention, refactor


def _flake8(code: str) -> Severity:
    if code in FLAKE8_ERRORS or code.startswith("E9"):
        return "error"
    if code in FLAKE8_STYLE:
        return "info"
    if code.startswith(FLAKE8_LIKELY_BUGS):
        return "warning"
    return "info"  # pycodestyle, mccabe


def _hook(code: str) -> Severity:
    if code in HOOK_ERRORS:
        return "error"
    if code in HOOK_STYLE:
        return "info"
    return "warning"

"""Fail fast, before any database: what Odoo checks before ``-i`` and refuses at once.

Unknown module names, dependencies that are not in the addons path and unmet external
dependencies cost a plain odoo-bin a database init (seconds) and us a template build (tens of
seconds) before Odoo says no. We say it from the manifests, in Odoo's words, at the manifest line
(from its syntax tree). Only what Odoo would certainly refuse: module names and dependencies are
judged only when Odoo's own addons are known (else ``base`` itself would look missing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from odoo_tools.addons import Addon, AddonSet
from odoo_tools.findings import Finding
from odoo_tools.odoo_log import kinds, manifest_entry_line
from odoo_tools.runs._externals import python_version, refused_externals
from odoo_tools.series import SeriesFacts

# (interpreter, kind, entry) found met: re-validations skip the probe (a process start). A refused
# entry is asked again every time: the user is expected to install it and retry.
_MET: set[tuple[str, str, str]] = set()
# odoo/modules/module.py (MODULE_NAME_RE) on the series with ``strict_module_names``: listing the
# addons path, which every -i does, raises "Invalid module name" on any module folder named otherwise,
# whichever module is installed.
_STRICT_NAME = re.compile(r"^\w{1,256}$")


async def preflight(
    addons: AddonSet,
    targets: Sequence[str],
    *,
    python: str | None,
    roots: Sequence[Path],
    env: Mapping[str, str],
    facts: SeriesFacts | None = None,
) -> list[Finding]:
    """Findings that make running Odoo pointless; [] when Odoo should be tried. ``facts``: those
    of Odoo's series (None: unknown, nothing series-specific is judged)."""
    # Odoo reads every manifest of the addons path before any -i: one bad folder fails them all
    invalid = [
        _invalid_name(a, facts)
        for a in addons.addons.values()
        if facts is not None and facts.strict_module_names and not _STRICT_NAME.match(a.name)
    ]
    if facts is not None:
        invalid += [f for a in addons.addons.values() if (f := _invalid_version(a, facts)) is not None]
    if invalid:
        return invalid
    if facts is not None and python is not None:  # an older Python fails Odoo's import
        version = await python_version(python, env)
        starts, problem = facts.python_problem(version) if version else (True, "")
        if not starts:
            return [_python_refused(python, problem, facts)]
    core_known = "base" in addons
    unknown = [t for t in targets if t not in addons] if core_known else []
    findings = [_unknown(name) for name in unknown]
    known = [t for t in targets if t in addons]
    if core_known:
        for module, absent in addons.missing_dependencies(known).items():
            findings += [_missing_dependency(addons.addons[module], dep) for dep in absent]
    if facts is not None and facts.foreign_version_uninstallable:  # a warning in Odoo's log, state only
        closure = addons.closure(known)
        findings += [
            _other_series(addons.addons[m], facts) for m in sorted(closure) if _foreign(addons, m, facts)
        ]
    if findings or python is None:
        return findings
    scope = [addons.addons[m] for m in sorted(addons.closure(known, auto_install=core_known)) if m in addons]
    return await _externals(scope, python, roots, env)


async def _externals(
    scope: Sequence[Addon], python: str, roots: Sequence[Path], env: Mapping[str, str]
) -> list[Finding]:
    declared = [(addon, kind, entry) for addon in scope for kind, entry in _declared(addon)]
    unknown = {(kind, entry) for _a, kind, entry in declared if (python, kind, entry) not in _MET}
    refused = await refused_externals(
        python,
        roots,
        [entry for kind, entry in unknown if kind == "python"],
        [entry for kind, entry in unknown if kind == "bin"],
        env,
    )
    _MET.update((python, kind, entry) for kind, entry in unknown if _key(kind, entry) not in refused)
    findings = []
    for addon, kind, entry in declared:
        reason = refused.get(_key(kind, entry))
        if reason is not None:
            findings.append(_external(addon, kind, entry, reason))
    return findings


def _key(kind: str, entry: str) -> str:
    return entry if kind == "python" else f"bin:{entry}"


def _declared(addon: Addon) -> list[tuple[str, str]]:
    externals = addon.manifest.external_dependencies
    return [
        (kind, entry)
        for kind in ("python", "bin")
        for entry in (externals.get(kind) or [])
        if isinstance(entry, str)
    ]


def _python_refused(python: str, problem: str, facts: SeriesFacts) -> Finding:
    return Finding(
        source="odoo",
        code=kinds.PYTHON_ERROR,
        severity="error",
        message=f"{python}: {problem}; Odoo would stop at its import, before any module.",
        hint=f"Run Odoo {facts.series} with a Python {facts.python_range}: point --odoo-python (odoo_python) "
        "at that environment's interpreter.",
        kind=kinds.PYTHON_ERROR,
    )


def _unknown(name: str) -> Finding:
    return Finding(
        source="odoo",
        code=kinds.UNKNOWN_MODULE,
        severity="error",
        module=name,
        message=f"Odoo does not know module(s) {name}: there is no such folder in the addons path "
        "(Odoo would ignore it and install nothing).",
        hint=kinds.HINTS[kinds.UNKNOWN_MODULE],
        kind=kinds.UNKNOWN_MODULE,
    )


def _invalid_name(addon: Addon, facts: SeriesFacts) -> Finding:
    return _manifest_error(
        addon,
        kinds.UNKNOWN_MODULE,
        f"Invalid module name: {addon.name}. Odoo {facts.series} accepts only letters, digits and _ "
        "in a module's folder name and fails every install while this folder is in the addons path.",
        "Rename the folder (e.g. with _ instead of -) or take it out of the addons path.",
    )


def _version_refusal(version: str, facts: SeriesFacts) -> str:
    """Odoo's adapt_version (odoo/modules/module.py) on that series: its error, '' when accepted."""
    parts = version.split(".")
    serie = facts.series
    if facts.version_rule == "two-to-five-parts":
        if not 2 <= len(parts) <= 5:
            return f"Invalid version {version!r}, must have between 2 and 5 parts"
        if version.startswith(serie) and not parts[0].isdigit():
            parts[0] = "".join(c for c in parts[0] if c.isdigit())
        return "" if all(p.isdigit() and p.isascii() for p in parts) else f"Invalid version {version!r}"
    if facts.version_rule == "short-or-prefixed":  # "any" (16.0): taken as it is
        base = (
            version if version == serie or not version.startswith(serie + ".") else version[len(serie) + 1 :]
        )
        if not re.match(r"^[0-9]+\.[0-9]+(?:\.[0-9]+)?$", base):
            return (
                f"Invalid version {base!r}. Modules should have a version in format `x.y`, `x.y.z`, "
                f"`{serie}.x.y` or `{serie}.x.y.z`."
            )
    return ""


def _foreign(addons: AddonSet, name: str, facts: SeriesFacts) -> bool:
    """check_version (19.0 on): a version of 4 or 5 numbers must start with the series."""
    addon = addons.addons.get(name)
    version = str(addon.manifest.version) if addon is not None else ""
    return len(version.split(".")) > 3 and not version.startswith(f"{facts.series}.")


def _other_series(addon: Addon, facts: SeriesFacts) -> Finding:
    return _manifest_error(
        addon,
        kinds.UNKNOWN_MODULE,
        f"The module {addon.name} has an incompatible version, setting installable=False "
        f"(version {addon.manifest.version!r} is not of {facts.series}): Odoo installs nothing of it.",
        f"Write a {facts.series}.x.y.z version once the module is ported to {facts.series}.",
        "version",
    )


def _invalid_version(addon: Addon, facts: SeriesFacts) -> Finding | None:
    refusal = _version_refusal(str(addon.manifest.version), facts)
    if not refusal:
        return None
    return _manifest_error(
        addon,
        kinds.REGISTRY_FAILURE,
        f"Module {addon.name}: invalid manifest. {refusal} Odoo {facts.series} reads every manifest "
        "of the addons path before installing, so every install fails while this one is there.",
        f"Write the version for this series ({facts.series}.x.y.z, or x.y.z), or take the module out "
        "of the addons path.",
        "version",
    )


def _missing_dependency(addon: Addon, dep: str) -> Finding:
    return _manifest_error(
        addon,
        kinds.MISSING_DEPENDENCY,
        f'You try to install module "{addon.name}" that depends on module "{dep}". '
        "But the latter module is not available in your system.",
        kinds.HINTS[kinds.MISSING_DEPENDENCY],
        "depends",
        dep,
    )


def _external(addon: Addon, kind: str, entry: str, reason: str) -> Finding:
    return _manifest_error(
        addon,
        kinds.EXTERNAL_DEPENDENCY,
        f'Unable to install module "{addon.name}" because an external dependency is not met: ' + reason,
        kinds.HINTS[kinds.EXTERNAL_DEPENDENCY],
        "external_dependencies",
        entry,
        kind,
    )


def _manifest_error(addon: Addon, kind: str, message: str, hint: str, *key_path: str) -> Finding:
    """An error Odoo would raise about ``addon``, at its manifest (the entry ``key_path`` names)."""
    manifest = addon.path / Path(addon.manifest.file).name
    return Finding(
        source="odoo",
        code=kind,
        severity="error",
        module=addon.name,
        path=addon.manifest.file,
        line=manifest_entry_line(manifest, *key_path) if key_path else None,
        message=message,
        hint=hint,
        kind=kind,
    )

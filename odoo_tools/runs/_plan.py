"""What a validation works on: its configuration, the module names it accepts, and the
dependencies its template database holds."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.addons import AddonSet
from odoo_tools.errors import InvalidInput
from odoo_tools.runs._pg import DEFAULT_PREFIX, PgParams
from odoo_tools.runs._template_info import TemplateInfo
from odoo_tools.runs._template_key import AutoInstall, modules_digest

# What Odoo accepts as a module (a folder name: letters, digits, "_", and "-" as real modules
# use), and what stays one argument on odoo-bin's command line: no leading "-" (an option),
# no "," (the -i/-u separator), no path separator, dot or space.
_MODULE_NAME = re.compile(r"^\w[\w-]*$")


@dataclass(frozen=True)
class RunnerConfig:
    """Everything a validation needs, independent of how it was configured (CLI, MCP, CI)."""

    addons_paths: Sequence[Path]
    cache_dir: Path
    pg: PgParams = field(default_factory=PgParams)
    odoo_bin: Path | None = None
    odoo_python: str | None = None
    db_prefix: str = DEFAULT_PREFIX
    timeout: float = 600.0
    use_cache: bool = True
    keep_db: bool = False
    template_max_count: int = 5
    template_max_age_days: float = 14.0
    # A new template is built on a copy of the largest one it contains (_template_info.layer_base): for a
    # fixed Odoo whose module files never change between builds (a benchmark over one lab)
    layered_templates: bool = False
    spare_clone: bool = True  # keep the next clone of a template ready (see dbcache.refill_spare)
    background_drop: bool = True  # drop a finished run's database after answering
    base_env: Mapping[str, str] | None = None  # default: our environment (filtered for the child)
    extra_env: Mapping[str, str] = field(default_factory=dict)  # passed to odoo-bin as given
    warm: bool = False  # fork odoo-bin from a warm worker (see _warm): for long-lived processes
    # Folders of addons_paths that we made of links to chosen module folders (migrate --prove: the
    # migrated modules and their dependency closure, no sibling): their links are followed.
    linked_roots: Sequence[Path] = ()


def check_modules(modules: Sequence[str], action: str = "install") -> list[str]:
    """The module names, each item possibly a comma-separated list ("a,b"), without repeats."""
    names = list(dict.fromkeys(n.strip() for item in modules for n in item.split(",") if n.strip()))
    if not names:
        raise InvalidInput("No module given.", "Name one or more modules (folder names), e.g. library_base.")
    bad = [m for m in names if not _MODULE_NAME.match(m)]
    if bad:
        raise InvalidInput(
            f"Not a module name: {', '.join(bad)}.",
            "Use technical names (folder names: letters, digits, _ and -, not starting with -), "
            "not paths or titles.",
        )
    hyphenated = [m for m in names if "-" in m]
    if action == "test" and hyphenated:
        raise InvalidInput(
            f"Odoo cannot select the tests of {', '.join(hyphenated)}: --test-tags takes no '-' in a module "
            "name (odoo/tests/tag_selector.py), so Odoo would reject the tag and run no test of it.",
            "Install or upgrade it instead, or rename the module folder without '-' to run its tests.",
        )
    return names


def dependencies(addons: AddonSet, targets: Sequence[str]) -> tuple[list[str], list[str]]:
    """(what the template build installs, everything the template will hold).

    Both exclude the targets: editing them must not invalidate the template. ``base`` is always
    there; dependencies we cannot find are left to Odoo, which reports them.
    """
    known = [t for t in targets if t in addons]
    explicit = (addons.closure(known) - set(targets)) | {"base"}
    held = addons.auto_install_expansion(explicit) if "base" in addons else explicit
    return sorted(explicit), sorted(held - set(targets))


def auto_install_offers(addons: AddonSet) -> list[AutoInstall]:
    """Every auto_install module of every root (installable or not: Odoo's database init marks
    them regardless), for the template key."""
    return [
        (str(a.root), a.name, sorted(a.manifest.auto_install_triggers or ()), list(a.depends), a.installable)
        for a in addons.addons.values()
        if a.manifest.auto_install
    ]


def held_record(info: TemplateInfo, held: Mapping[str, str], addons: AddonSet) -> TemplateInfo:
    """The template's record once built: what its ir_module_module really holds."""
    names = sorted(held)
    return info.model_copy(
        update={
            "held": names,
            "unlocated": [m for m in names if m not in addons],
            "extras_digest": _extras_digest(names, info.modules, addons),
        }
    )


def template_mismatch(record: TemplateInfo, addons: AddonSet) -> str:
    """Why a template (same key: same predicted modules, files and auto_install offers) must not
    serve a run with these addons; "" when it holds exactly what a fresh build would."""
    if record.held is None:
        return "it was recorded before templates listed the modules they really hold"
    absent = [m for m in record.held if m not in addons and m not in record.unlocated]
    if absent:
        return f"it holds {', '.join(absent)}, which this run's addons path does not have"
    if _extras_digest(record.held, record.modules, addons) != record.extras_digest:
        extras = sorted(set(record.held) - set(record.modules) - set(record.unlocated))
        return f"{', '.join(extras)} changed since it was built"
    return ""


def _extras_digest(held: Sequence[str], predicted: Sequence[str], addons: AddonSet) -> str:
    """The files of the held modules the key does not cover (Odoo pulled them in unpredicted)."""
    extras = sorted(set(held) - set(predicted))
    return modules_digest([(m, addons.addons[m].path) for m in extras if m in addons])

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

_MODULE_NAME = re.compile(r"^[A-Za-z0-9_]+$")


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
    spare_clone: bool = True  # keep the next clone of a template ready (see dbcache.refill_spare)
    background_drop: bool = True  # drop a finished run's database after answering
    base_env: Mapping[str, str] | None = None  # default: our environment (filtered for the child)
    extra_env: Mapping[str, str] = field(default_factory=dict)  # passed to odoo-bin as given


def check_modules(modules: Sequence[str]) -> list[str]:
    """The module names, each item possibly a comma-separated list ("a,b"), without repeats."""
    names = list(dict.fromkeys(n.strip() for item in modules for n in item.split(",") if n.strip()))
    if not names:
        raise InvalidInput("No module given.", "Name one or more modules (folder names), e.g. library_base.")
    bad = [m for m in names if not _MODULE_NAME.match(m)]
    if bad:
        raise InvalidInput(
            f"Not a module name: {', '.join(bad)}.",
            "Use technical names (folder names), not paths or titles.",
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

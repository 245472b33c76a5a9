"""Which linter configuration applies to an addons root: the project's own files win over ours.

Looked up (``_config_files``) from the addons root upwards, stopping at the repository top (the
first folder with a ``.git``) or the file-system root; the closest file wins:
- pylint: ``.pylintrc`` (mandatory + optional) and ``.pylintrc-mandatory`` (the failing set);
- flake8: ``.flake8``, or ``setup.cfg`` / ``tox.ini`` with a ``[flake8]`` section;
- oca-odoo-pre-commit-hooks: ``.oca_hooks.cfg``;
- ``.pre-commit-config.yaml`` (OCA style): its pylint-odoo ``--rcfile``s and message selections,
  the OCA hooks' disabled checks, ruff or flake8, the ``exclude`` regex (``_precommit``).
Our defaults (adapted from OCA's templates) live in ``odoo_tools/lint/config/``. Project files
are read the way their linter reads them and given to it only as ``_safe_config``'s copy, without
what would run the project's code; a file we cannot read that way is not used at all.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from odoo_tools.lint._config_files import (
    first_file,
    flake8_file,
    has_oca_setup,
    pylintrcs,
    ruff_file,
    search_folders,
)
from odoo_tools.lint._precommit import TEMPLATE_HOOKS_DISABLED, read_pre_commit
from odoo_tools.lint._safe_config import (
    SafeConfig,
    pylint_options,
    safe_flake8,
    safe_oca_hooks,
    safe_pylintrc,
    safe_ruff,
)
from odoo_tools.series import known_facts
from odoo_tools.storage import read_capped

CONFIG_DIR = Path(__file__).resolve().parent / "config"
DEFAULT_PYLINTRC = CONFIG_DIR / "pylintrc"
DEFAULT_PYLINTRC_MANDATORY = CONFIG_DIR / "pylintrc-mandatory"
DEFAULT_FLAKE8 = CONFIG_DIR / "flake8.cfg"
DEFAULT_RUFF = CONFIG_DIR / "ruff.toml"


@dataclass(frozen=True)
class LintConfig:
    """The configuration files one addons root is checked with."""

    pylintrc: Path  # run with this one (it holds mandatory and optional messages)
    pylintrc_mandatory: Path  # its enabled messages are the failing ones
    pylint_is_default: bool  # ours: valid-odoo-versions comes from the project's series
    flake8_config: Path
    oca_hooks_config: Path | None
    oca_grading: bool = False  # OCA's configuration found (or --profile oca): mandatory = error
    pylint_args: tuple[str, ...] = ()  # the pre-commit's --enable/--disable/--valid-odoo-versions
    hooks_disabled: frozenset[str] = TEMPLATE_HOOKS_DISABLED
    python_linter: str = "flake8"  # or "ruff", when the repository uses it
    ruff_config: Path | None = None
    exclude: str | None = None  # the pre-commit's exclude regex, on paths relative to ``top``
    top: Path | None = None  # the repository top (the folder of the pre-commit file)
    ignored: tuple[str, ...] = ()  # settings dropped because they would run the project's code
    used: tuple[str, ...] = field(default=())  # the project files this configuration came from
    # Sources whose tool we run in a newer version than the repository pins: (source, pinned, ours).
    drift: tuple[tuple[str, str, str], ...] = ()
    hooks_pin: str | None = None  # the oca-odoo-pre-commit-hooks rev the pre-commit pins, if any
    # The project's files the cleaned copies above were made from (what a hint should name).
    pylintrc_source: Path | None = None
    flake8_source: Path | None = None
    ruff_source: Path | None = None

    @functools.cached_property
    def mandatory_messages(self) -> frozenset[str] | None:
        """Symbols that fail the check, or None when the file does not list them explicitly."""
        return enabled_messages(self.pylintrc_mandatory)

    @functools.cached_property
    def fingerprint(self) -> str:
        """Changes whenever any configuration file's content changes (part of the cache key);
        read once per ``LintConfig`` (one per root and run), not once per module and check."""
        digest = hashlib.sha256(b"oca" if self.oca_grading else b"default")
        # The pinned tools' versions too: a message fails only where the pinned pylint-odoo agrees.
        options = (self.pylint_args, sorted(self.hooks_disabled), self.python_linter, self.drift)
        digest.update(repr(options).encode())
        files = (self.pylintrc, self.pylintrc_mandatory, self.flake8_config, self.oca_hooks_config)
        for path in (*files, self.ruff_config):
            digest.update(str(path).encode())
            if path is not None and path.is_file():
                try:  # a repository's file: read within the cap, a pipe never blocks
                    digest.update(read_capped(path) or b"over the cap")
                except OSError:
                    digest.update(b"unreadable")
        return digest.hexdigest()


def config_for_root(root: Path, profile: str | None = None, series: str | None = None) -> LintConfig:
    """The configuration for the addons root ``root``: project files first, then our defaults
    (OCA's template for ``series``: ruff from 17.0, flake8 before). ``profile`` "oca" or
    "default" forces the grading; otherwise OCA's files select OCA's."""
    folders = search_folders(root)
    repository = folders[-1]  # no project file may lead out of it
    pre_commit = read_pre_commit(first_file(folders, ".pre-commit-config.yaml"))
    optional, mandatory = pylintrcs(folders, pre_commit)
    own_rc = optional or mandatory
    pylintrc = safe_pylintrc(own_rc, repository) if own_rc is not None else None
    if pylintrc is not None and pylintrc.path is None:
        optional = mandatory = None  # not used at all: our defaults grade too
    mandatory_check = None
    if mandatory is not None and mandatory != own_rc:
        mandatory_check = safe_pylintrc(mandatory, repository)
    if mandatory_check is not None and mandatory_check.path is None:
        mandatory = None  # only its message list is read, but not from a file pylint would read otherwise
    flake8 = flake8_file(folders)
    safe_flake = safe_flake8(flake8, repository) if flake8 else None
    ruff = ruff_file(folders)
    linter = pre_commit.python_linter or _python_linter(ruff, flake8, series)
    safe_ruff_config = safe_ruff(ruff, repository) if linter == "ruff" and ruff else None
    used = [str(p) for p in (pre_commit.path, optional, mandatory) if p is not None]
    if linter == "ruff" and ruff and safe_ruff_config and safe_ruff_config.path:
        used.append(str(ruff))
    elif linter != "ruff" and flake8 and safe_flake and safe_flake.path:
        used.append(str(flake8))
    oca_hooks = first_file(folders, ".oca_hooks.cfg")
    safe_hooks = safe_oca_hooks(oca_hooks, repository) if oca_hooks else None
    checked = [c for c in (pylintrc, safe_flake, safe_ruff_config, safe_hooks) if c is not None]
    if mandatory_check is not None and mandatory_check.path is None:
        checked.append(mandatory_check)
    return LintConfig(
        pylintrc=pylintrc.path if pylintrc and pylintrc.path else DEFAULT_PYLINTRC,
        pylintrc_mandatory=mandatory or optional or DEFAULT_PYLINTRC_MANDATORY,
        pylint_is_default=pylintrc is None or pylintrc.path is None,
        flake8_config=safe_flake.path if safe_flake and safe_flake.path else DEFAULT_FLAKE8,
        oca_hooks_config=safe_hooks.path if safe_hooks else None,
        oca_grading=profile == "oca" or (profile is None and has_oca_setup(folders)),
        pylint_args=pre_commit.pylint_args,
        hooks_disabled=pre_commit.hooks_disabled,
        python_linter=linter,
        ruff_config=_ruff_config(
            linter, ruff, safe_ruff_config, chosen_by_pre_commit=bool(pre_commit.python_linter)
        ),
        exclude=pre_commit.exclude,
        top=pre_commit.path.parent if pre_commit.path else None,
        ignored=tuple(note for c in checked for note in c.ignored) + pre_commit.problems,
        used=tuple(dict.fromkeys(used)),
        drift=_drift(pre_commit.pins),
        hooks_pin=pre_commit.pins.get("oca-hooks"),
        pylintrc_source=own_rc if pylintrc and pylintrc.path else None,
        flake8_source=flake8 if safe_flake and safe_flake.path else None,
        ruff_source=ruff if safe_ruff_config and safe_ruff_config.path else None,
    )


def project_linter_files(root: Path) -> frozenset[Path]:
    """The repository's files the linters of ``root`` are configured from, whatever their names
    (the pre-commit may name any rc file): what an edit would re-grade the check with."""
    config = config_for_root(root)
    named = (*config.used, config.pylintrc_source, config.flake8_source, config.ruff_source)
    return frozenset(Path(p).resolve() for p in named if p is not None)


_PACKAGES = {
    "pylint": "pylint-odoo",
    "ruff": "ruff",
    "flake8": "flake8",
    "oca-hooks": "oca-odoo-pre-commit-hooks",
}


def _drift(pins: dict[str, str]) -> tuple[tuple[str, str, str], ...]:
    """Tools the repository pins older than ours (a rev that is not a version tells nothing)."""
    drift = []
    for source, rev in sorted(pins.items()):
        try:
            ours = metadata.version(_PACKAGES[source])
        except metadata.PackageNotFoundError:
            continue
        pinned = _version(rev)
        if pinned is not None and pinned < (_version(ours) or ()):
            drift.append((source, rev.lstrip("v"), ours))
    return tuple(drift)


def release(text: str) -> tuple[int, ...] | None:
    """``"v0.0.25"`` -> (0, 0, 25); a rev that is not a version (a commit) -> None."""
    return _version(text)


def _version(text: str) -> tuple[int, ...] | None:
    parts = []
    for part in text.strip().lstrip("v").split("."):
        digits = "".join(itertools.takewhile(str.isdigit, part))
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts) if parts else None


def _python_linter(ruff: Path | None, flake8: Path | None, series: str | None) -> str:
    if ruff and not flake8:
        return "ruff"
    if flake8:
        return "flake8"
    return "ruff" if uses_ruff_by_default(series) else "flake8"


def _ruff_config(
    linter: str, ruff: Path | None, safe: SafeConfig | None, *, chosen_by_pre_commit: bool
) -> Path | None:
    if linter != "ruff":
        return None
    if ruff is not None:
        return safe.path if safe is not None and safe.path is not None else DEFAULT_RUFF
    # A pre-commit that runs ruff without a ruff file runs ruff's own defaults; no file at all:
    # the template's.
    return None if chosen_by_pre_commit else DEFAULT_RUFF


def uses_ruff_by_default(series: str | None) -> bool:
    facts = known_facts(series)  # OCA's template lints with ruff instead of flake8 from 17.0 (use_ruff)
    return facts is not None and facts.python_linter == "ruff"


def config_note(config: LintConfig) -> str:
    """One line saying which configuration a run used."""
    grading = "OCA grading (mandatory = error)" if config.oca_grading else "default grading"
    python = f"{config.python_linter} for Python style"
    if not config.used:
        return f"configuration: OCA template defaults (no project configuration found); {python}; {grading}"
    disabled = (
        f"; OCA hooks disabled: {', '.join(sorted(config.hooks_disabled))}" if config.hooks_disabled else ""
    )
    newer = ""
    if config.drift and config.oca_grading:
        versions = ", ".join(f"{source} {pinned} (ours {ours})" for source, pinned, ours in config.drift)
        newer = (
            f"; the repository pins older tools: {versions}, so their messages fail only where they break"
            " (rules may be newer than the pin; --baseline adopts them)"
        )
    return f"configuration: {', '.join(config.used)}; {python}{disabled}; {grading}{newer}"


def enabled_messages(rcfile: Path) -> frozenset[str] | None:
    """The ``enable=`` list of an rc file that starts from ``disable=all``; else None."""
    pairs = pylint_options(rcfile)
    if pairs is None:
        return None
    disable = [item for option, value in pairs if option == "disable" for item in _split_list(value)]
    if "all" not in disable:
        return None
    return frozenset(item for option, value in pairs if option == "enable" for item in _split_list(value))


def _split_list(raw: str) -> list[str]:
    items: list[str] = []
    for line in raw.splitlines():
        line = line.split("#", 1)[0]
        items.extend(part.strip() for part in line.split(","))
    return [item for item in items if item]

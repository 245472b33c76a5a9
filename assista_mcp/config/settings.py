"""Settings, with one precedence everywhere:
CLI flag > ``ASSISTA_*`` environment > project file > ``odoo.conf`` > defaults.

Each setting is declared once, below: its type, default and a ``Source`` saying which CLI flag
(derived: ``--name-with-dashes``), odoo.conf key and help it has, and whether a project file the
user has not trusted may set it. Its environment variable is ``ASSISTA_<NAME>`` and its project
key is its name (dashes or underscores). ``loading.load_settings`` merges the sources and records
where each value came from.

The project file is ``assista-odoo.toml`` or ``[tool.assista-odoo]`` in ``pyproject.toml`` in the
working directory. A cloned repository or a model can write it, so settings that run code, reach
the network or widen the sandbox come from it only after ``assista-odoo trust`` (see trust.py).
Secrets (the database password, the HTTP token) are ``SecretStr``: they never print in a repr.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, PrivateAttr, SecretStr, field_validator

from odoo_tools.addons import detect_series, odoo_core_roots, odoo_source_from_bin
from odoo_tools.errors import ConfigError
from odoo_tools.runs import split_addons_path
from odoo_tools.series import Series
from odoo_tools.storage import default_cache_dir, default_data_dir
from odoo_tools.workspace import Workspace

ENV_PREFIX = "ASSISTA_"


@dataclass(frozen=True)
class Source:
    """Where a setting may come from, besides its env variable ``ASSISTA_<NAME>``."""

    flag_group: str | None = None  # has a --flag: "project"/"odoo" ones added by common.py
    flag: str | None = None  # when the flag is not the dashed name
    metavar: str | None = None
    help: str | None = None
    env_alias: str | None = None
    conf_key: str | None = None  # the odoo.conf [options] key
    project: bool = True  # False: never from a project file (secrets)
    needs_trust: bool = False  # from a project file only once the user trusted it

    def flag_for(self, name: str) -> str:
        return self.flag or "--" + name.replace("_", "-")


TRUSTED = Source(needs_trust=True)
AGENT = Source(flag_group="agent")


def flag(group: str, metavar: str, help: str | None = None, *, trust: bool = False, **more: Any) -> Source:
    """A setting with a ``--flag`` in ``group``; ``trust``: not from an untrusted project file."""
    return Source(flag_group=group, metavar=metavar, help=help, needs_trust=trust, **more)


class Settings(BaseModel):
    """Everything configurable; see ``Source`` for where each field may come from."""

    addons_paths: Annotated[
        list[Path],
        flag(
            "project",
            "DIR[,DIR...]",
            "addons roots (default: ASSISTA_ADDONS_PATH, the project file, or odoo.conf)",
            flag="--addons-path",
            env_alias="ASSISTA_ADDONS_PATH",
            conf_key="addons_path",
        ),
    ] = Field(default_factory=list)
    odoo_config: Annotated[
        Path | None, flag("project", "FILE", "an odoo.conf to read addons_path and db_* from", trust=True)
    ] = None
    odoo_path: Annotated[
        Path | None, flag("project", "DIR", "an Odoo source tree, read-only knowledge", trust=True)
    ] = None
    from_odoo_path: Annotated[
        list[Path],
        flag(
            "migrate",
            "DIR",
            "the Odoo source of the series modules are migrated from: gone anchors of inherited core "
            "views are retargeted and changed core method signatures followed where it says how; "
            "once per series for a run through several steps (16.0's and 17.0's for --to 18.0)",
            trust=True,
        ),
    ] = Field(default_factory=list)
    odoo_series: Annotated[str | None, flag("project", "X.0", "Odoo series when it cannot be detected")] = (
        None
    )
    odoo_bin: Annotated[
        Path | None, flag("odoo", "PATH", "odoo-bin to run (default: ASSISTA_ODOO_BIN, PATH)", trust=True)
    ] = None
    odoo_python: Annotated[
        str | None, flag("odoo", "PYTHON", "interpreter of the Odoo environment", trust=True)
    ] = None
    db_host: Annotated[
        str | None,
        flag("odoo", "HOST", "PostgreSQL host (default: PGHOST, odoo.conf)", trust=True, conf_key="db_host"),
    ] = None
    db_port: Annotated[
        int | None,
        flag(
            "odoo",
            "PORT",
            "PostgreSQL port (default: PGPORT, odoo.conf, 5432)",
            trust=True,
            conf_key="db_port",
        ),
    ] = None
    db_user: Annotated[
        str | None,
        flag(
            "odoo",
            "USER",
            "PostgreSQL role (default: PGUSER, odoo.conf, your login)",
            trust=True,
            conf_key="db_user",
        ),
    ] = None
    db_password: Annotated[SecretStr | None, Source(conf_key="db_password", needs_trust=True)] = None
    odoo_timeout: Annotated[
        float, flag("odoo", "SECONDS", "longest one odoo-bin run may take (default: 600)")
    ] = 600.0
    no_cache: bool = Field(default=False, description="Odoo runs start from an empty database")
    keep_db: bool = Field(default=False, description="Keep the database of each Odoo run")
    warm_worker: bool = Field(
        default=True,
        description="The server (serve, run, chat) forks odoo-bin from a warm worker that imported Odoo "
        "once; false: a cold odoo-bin per run. One-shot commands (check, odoo install) always run cold",
    )
    db_prefix: Annotated[str, TRUSTED] = Field(
        default="assista_", description="Prefix of every database we create"
    )
    template_max_count: int = 5
    template_max_age_days: float = 14.0
    data_dir: Annotated[Path | None, Source(conf_key="data_dir", needs_trust=True)] = None
    home: Annotated[Path, TRUSTED] = Field(
        default_factory=default_data_dir,
        description="User data: sessions, trusted project files, the HTTP token",
    )
    cache_dir: Annotated[Path, TRUSTED] = Field(default_factory=default_cache_dir)
    # The agent's flags are added by cli/agent.py (choices, validation); read from there.
    model: Annotated[str | None, AGENT] = None
    fallback_model: Annotated[str | None, AGENT] = None
    api_base: Annotated[str | None, Source(flag_group="agent", needs_trust=True)] = None
    mode: Annotated[str, Source(flag_group="agent", needs_trust=True)] = "ask"
    max_steps: Annotated[int, AGENT] = 30
    auth_token: Annotated[SecretStr | None, Source(project=False)] = Field(
        default=None, description="Bearer token of serve --transport http"
    )

    _origins: dict[str, str] = PrivateAttr(default_factory=dict)
    _notes: list[str] = PrivateAttr(default_factory=list)

    @field_validator("from_odoo_path", mode="before")
    @classmethod
    def _one_or_more_paths(cls, value: object) -> object:
        """One path (as it was before a run could read a source per series) or several."""
        if isinstance(value, Path):
            return [value]
        return split_addons_path(value) if isinstance(value, str) else value

    def origin(self, name: str) -> str:
        """Where ``name`` came from: "cli", "env", "project", "odoo.conf" or "default"."""
        return self._origins.get(name, "default")

    @property
    def notes(self) -> list[str]:
        """What the user should hear about loading (e.g. settings an untrusted file could not set)."""
        return list(self._notes)

    def odoo_source(self) -> Path | None:
        """The read-only Odoo source: ``odoo_path``, else the folder of the configured odoo-bin."""
        if self.odoo_path is not None:
            return self.odoo_path
        return odoo_source_from_bin(self.odoo_bin) if self.odoo_bin else None

    def migration_sources(self) -> dict[Series, Path]:
        """The Odoo sources migration reads, by series: the target series' (``odoo_source``) and,
        with ``from_odoo_path``, the older series' (one per series: a run through several steps
        reads each step's two). A saas~17.2 source stands for its major's series, as before."""
        sources: dict[Series, Path] = {}
        source = self.odoo_source()
        if source is not None and (major := detect_series(odoo_path=source).major) is not None:
            sources[Series(major)] = source
        for path in self.from_odoo_path:
            major = detect_series(odoo_path=path).major
            if major is None:
                raise ConfigError(
                    f"--from-odoo-path {path} is not the Odoo source of an older series",
                    "Give the folder holding odoo-bin and odoo/release.py of the modules' series.",
                )
            old = Series(major)
            if old in sources:
                raise ConfigError(
                    f"--from-odoo-path {path} is a second Odoo {old} source (the other: {sources[old]})",
                    "Give each series' source once per series: --from-odoo-path for the older series, "
                    "--odoo-path or --odoo-bin for the target.",
                )
            sources[old] = path
        return sources

    def workspace(self) -> Workspace:
        source = self.odoo_source()
        # Core addons live in <odoo>/odoo/addons (base) and <odoo>/addons: knowledge only.
        readonly = odoo_core_roots(source) if source else []
        return Workspace(self.addons_paths, readonly_roots=readonly, private_dir=self.home)


def source_of(name: str) -> Source:
    for item in Settings.model_fields[name].metadata:
        if isinstance(item, Source):
            return item
    return Source()


SOURCES: dict[str, Source] = {name: source_of(name) for name in Settings.model_fields}
# Settings holding one path: a project file's relative value is made absolute from its folder.
PATH_SETTINGS = frozenset(n for n, f in Settings.model_fields.items() if f.annotation in (Path, Path | None))
# Settings holding several paths besides the addons path: a flag given once per path, a
# comma-separated environment variable, a project file's string or list.
PATH_LIST_SETTINGS = frozenset(
    n for n, f in Settings.model_fields.items() if f.annotation == list[Path] and n != "addons_paths"
)

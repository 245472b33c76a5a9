"""Settings, with one precedence everywhere:
CLI flag > ``ASSISTA_*`` environment > project file > ``odoo.conf`` > defaults.

The project file is ``assista-odoo.toml`` or ``[tool.assista-odoo]`` in ``pyproject.toml``, looked
up in the working directory. Secrets (the database password) are kept as ``SecretStr`` so they
never print in a repr, a log or a session.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import BaseModel, Field, SecretStr, ValidationError

from odoo_tools.addons import odoo_core_roots, odoo_source_from_bin
from odoo_tools.errors import ConfigError
from odoo_tools.runs import read_odoo_conf, split_addons_path
from odoo_tools.workspace import Workspace

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ENV_PREFIX = "ASSISTA_"
PATH_LIST_FIELDS = ("addons_paths",)
NEVER_IN_PROJECT_FILE = ("auth_token",)  # a secret: from the environment only


class Settings(BaseModel):
    """Everything configurable. Field ``x`` is read from env ``ASSISTA_X`` and project key ``x``."""

    addons_paths: list[Path] = Field(default_factory=list)
    odoo_config: Path | None = None
    odoo_path: Path | None = Field(default=None, description="Read-only Odoo source (knowledge)")
    odoo_bin: Path | None = None
    odoo_python: str | None = None
    odoo_series: str | None = Field(default=None, description="Fallback series, e.g. 18.0")
    odoo_timeout: float = 600.0
    no_cache: bool = Field(default=False, description="Odoo runs start from an empty database")
    keep_db: bool = Field(default=False, description="Keep the database of each Odoo run")
    db_prefix: str = Field(default="assista_", description="Prefix of every database we create")
    template_max_count: int = 5
    template_max_age_days: float = 14.0
    db_host: str | None = None
    db_port: int | None = None
    db_user: str | None = None
    db_password: SecretStr | None = None
    data_dir: Path | None = None
    home: Path = Field(default_factory=lambda: Path(platformdirs.user_data_dir("assista-odoo")))
    cache_dir: Path = Field(default_factory=lambda: Path(platformdirs.user_cache_dir("assista-odoo")))
    model: str | None = None
    fallback_model: str | None = None
    api_base: str | None = None
    mode: str = "ask"
    max_steps: int = 30
    auth_token: SecretStr | None = Field(default=None, description="Bearer token of serve --transport http")

    def odoo_source(self) -> Path | None:
        """The read-only Odoo source: ``odoo_path``, else the folder of the configured odoo-bin."""
        if self.odoo_path is not None:
            return self.odoo_path
        return odoo_source_from_bin(self.odoo_bin) if self.odoo_bin else None

    def workspace(self) -> Workspace:
        source = self.odoo_source()
        # Core addons live in <odoo>/odoo/addons (base) and <odoo>/addons: knowledge only.
        readonly = odoo_core_roots(source) if source else []
        return Workspace(self.addons_paths, readonly_roots=readonly)


def load_settings(
    cli: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Merge every source by precedence. ``cli`` holds only flags the user actually gave."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    layers: list[dict[str, Any]] = [
        {k: v for k, v in (cli or {}).items() if v is not None},
        _from_env(env),
        _from_project_file(cwd),
    ]
    merged: dict[str, Any] = {}
    for layer in reversed(layers):
        merged.update(layer)
    conf_path = merged.get("odoo_config")
    if conf_path:
        for key, value in _from_odoo_conf(Path(conf_path)).items():
            merged.setdefault(key, value)
    try:
        return Settings(**merged)
    except ValidationError as exc:
        raise ConfigError(f"Invalid setting: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}.") from exc


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in Settings.model_fields:
        raw = env.get(ENV_PREFIX + name.upper())
        if name == "addons_paths":
            raw = env.get("ASSISTA_ADDONS_PATH", raw)
        if raw:
            values[name] = split_addons_path(raw) if name in PATH_LIST_FIELDS else raw
    return values


def _from_project_file(cwd: Path) -> dict[str, Any]:
    table: dict[str, Any] = {}
    own = cwd / "assista-odoo.toml"
    pyproject = cwd / "pyproject.toml"
    try:
        if own.is_file():
            table = tomllib.loads(own.read_text(encoding="utf-8"))
        elif pyproject.is_file():
            table = (
                tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("assista-odoo", {})
            )
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Project settings file in {cwd} is not valid TOML: {exc}.") from exc
    values = {k.replace("-", "_"): v for k, v in table.items()}
    if "addons_path" in values:
        raw = values.pop("addons_path")
        values["addons_paths"] = split_addons_path(raw if isinstance(raw, str) else ",".join(raw), cwd)
    elif isinstance(values.get("addons_paths"), list):
        values["addons_paths"] = [cwd / p for p in values["addons_paths"]]
    return {k: v for k, v in values.items() if k in Settings.model_fields and k not in NEVER_IN_PROJECT_FILE}


def _from_odoo_conf(path: Path) -> dict[str, Any]:
    conf = read_odoo_conf(path)
    values: dict[str, Any] = {}
    if "addons_path" in conf:
        values["addons_paths"] = split_addons_path(conf["addons_path"], path.parent)
    for key in ("db_host", "db_port", "db_user", "db_password", "data_dir"):
        if key in conf:
            values[key] = conf[key]
    return values

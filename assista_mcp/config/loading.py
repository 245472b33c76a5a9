"""``load_settings``: every source of a setting merged by the one precedence,
CLI flag > ``ASSISTA_*`` environment > project file > ``odoo.conf`` > defaults,
each value's origin recorded. What the settings are, and where each may come from, is declared
once in ``settings``; this module only reads the sources in that order.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from assista_mcp.config.project_file import ProjectFile, read_project_file
from assista_mcp.config.settings import ENV_PREFIX, PATH_LIST_SETTINGS, PATH_SETTINGS, SOURCES, Settings
from odoo_tools.errors import ConfigError
from odoo_tools.runs import read_odoo_conf, split_addons_path
from odoo_tools.storage import default_data_dir, use_cache_dir


def load_settings(
    cli: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Merge every source by precedence. ``cli`` holds only flags the user actually gave."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    layers: list[tuple[str, dict[str, Any]]] = [
        ("cli", {k: v for k, v in (cli or {}).items() if v is not None}),
        ("env", _from_env(env)),
    ]
    home = _home_before_project_file(layers)
    project = read_project_file(cwd, home)
    layers.append(("project", _from_project_file(project)))
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for origin, layer in reversed(layers):
        merged.update(layer)
        origins.update(dict.fromkeys(layer, origin))
    conf_path = merged.get("odoo_config")
    if conf_path:
        for key, value in _from_odoo_conf(Path(conf_path)).items():
            if key not in merged:
                merged[key] = value
                origins[key] = "odoo.conf"
    try:
        settings = Settings(**merged)
    except ValidationError as exc:
        raise ConfigError(f"Invalid setting: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}.") from exc
    settings._origins = origins
    settings._notes = project.ignored_note() if project else []
    if origins.get("cache_dir") in ("cli", "project"):  # ASSISTA_CACHE_DIR is read where it is used
        use_cache_dir(settings.cache_dir)
    return settings


def _home_before_project_file(layers: list[tuple[str, dict[str, Any]]]) -> Path:
    """The user data folder (where trust is recorded) from the flags and environment only."""
    for _, layer in layers:
        if layer.get("home"):
            return Path(layer["home"])
    return default_data_dir()


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, source in SOURCES.items():
        raw = env.get(ENV_PREFIX + name.upper())
        if source.env_alias:
            raw = env.get(source.env_alias, raw)
        if raw:
            listed = name == "addons_paths" or name in PATH_LIST_SETTINGS
            values[name] = split_addons_path(raw) if listed else raw
    return values


def _from_project_file(project: ProjectFile | None) -> dict[str, Any]:
    if project is None:
        return {}
    folder = project.folder  # relative paths lead from the file's own folder
    values = {k.replace("-", "_"): v for k, v in project.table.items()}
    if "addons_path" in values:
        raw = values.pop("addons_path")
        values["addons_paths"] = split_addons_path(raw if isinstance(raw, str) else ",".join(raw), folder)
    elif isinstance(values.get("addons_paths"), list):
        values["addons_paths"] = [folder / p for p in values["addons_paths"]]
    values = {k: v for k, v in values.items() if k in SOURCES and SOURCES[k].project}
    for name in PATH_SETTINGS & values.keys():
        if isinstance(values[name], str) and values[name]:
            values[name] = folder / Path(values[name]).expanduser()
    for name in PATH_LIST_SETTINGS & values.keys():
        raw = values[name]
        if isinstance(raw, str):
            values[name] = split_addons_path(raw, folder)
        elif isinstance(raw, list):  # anything else: the settings' validation says what is wrong
            values[name] = [folder / Path(str(p)).expanduser() for p in raw]
    python = values.get("odoo_python")
    if isinstance(python, str) and "/" in python:  # a path, not a name looked up on PATH
        values["odoo_python"] = str(folder / Path(python).expanduser())
    if project.trusted:
        return values
    return project.keep_untrusted(values, {k for k, s in SOURCES.items() if s.needs_trust})


def _from_odoo_conf(path: Path) -> dict[str, Any]:
    conf = read_odoo_conf(path)
    values: dict[str, Any] = {}
    for name, source in SOURCES.items():
        if source.conf_key and source.conf_key in conf:
            raw = conf[source.conf_key]
            values[name] = split_addons_path(raw, path.parent) if name == "addons_paths" else raw
    return values

"""Flags shared by sub-commands, and turning them into Settings (flags win over everything).

The flags of the "project" and "odoo" groups are derived from the settings' declarations
(settings.Source), so a setting, its flag, its env variable and its project key cannot drift apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from assista_mcp.config.loading import load_settings
from assista_mcp.config.settings import PATH_LIST_SETTINGS, SOURCES, Settings
from odoo_tools.runs import split_addons_path
from odoo_tools.safe_text import escape_controls


def add_project_flags(parser: argparse.ArgumentParser) -> None:
    _add_group(parser, "project")


def add_odoo_flags(parser: argparse.ArgumentParser) -> None:
    _add_group(parser, "odoo")


def add_migrate_flags(parser: argparse.ArgumentParser) -> None:
    _add_group(parser, "migrate")


def _add_group(parser: argparse.ArgumentParser, group_name: str) -> None:
    group = parser.add_argument_group(group_name)
    for name, source in SOURCES.items():
        if source.flag_group != group_name:
            continue
        annotation = Settings.model_fields[name].annotation
        kind = (
            int if annotation in (int, int | None) else float if annotation in (float, float | None) else None
        )
        extra: dict[str, Any] = {"type": kind} if kind else {}
        if name in PATH_LIST_SETTINGS:  # one flag per path (a path may hold a comma)
            extra["action"] = "append"
        group.add_argument(source.flag_for(name), metavar=source.metavar, help=source.help, **extra)


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Only flags the user gave override lower layers; notes about the project file go to stderr."""
    cli: dict[str, Any] = {}
    for name, source in SOURCES.items():
        if source.flag_group is None:  # no flag: e.g. args.no_cache of `check` is the lint cache's
            continue
        dest = source.flag_for(name).lstrip("-").replace("-", "_")
        value = getattr(args, dest, None)
        if value is None:
            continue
        cli[name] = split_addons_path(value, Path.cwd()) if name == "addons_paths" else value
    settings = load_settings(cli)
    for note in settings.notes:
        print(f"assista-odoo: {escape_controls(note)}", file=sys.stderr)
    return settings


def positive_int(text: str) -> int:
    """An argparse ``type`` for counts that must be at least 1 (--jobs, --max-steps...)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value

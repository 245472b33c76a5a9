"""Flags shared by sub-commands, and turning them into Settings (flags win over everything)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from assista_mcp.settings import Settings, load_settings
from odoo_tools.runs import split_addons_path


def add_project_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("project")
    group.add_argument(
        "--addons-path",
        metavar="DIR[,DIR...]",
        help="addons roots (default: ASSISTA_ADDONS_PATH, the project file, or odoo.conf)",
    )
    group.add_argument("--odoo-config", metavar="FILE", help="an odoo.conf to read addons_path and db_* from")
    group.add_argument("--odoo-path", metavar="DIR", help="an Odoo source tree, read-only knowledge")
    group.add_argument("--odoo-series", metavar="X.0", help="Odoo series when it cannot be detected")


def add_odoo_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("odoo")
    group.add_argument("--odoo-bin", metavar="PATH", help="odoo-bin to run (default: ASSISTA_ODOO_BIN, PATH)")
    group.add_argument("--odoo-python", metavar="PYTHON", help="interpreter of the Odoo environment")
    group.add_argument("--db-host", metavar="HOST")
    group.add_argument("--db-port", metavar="PORT", type=int)
    group.add_argument("--db-user", metavar="USER")
    group.add_argument("--odoo-timeout", metavar="SECONDS", type=float)


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Only flags the user gave override lower layers."""
    cli: dict[str, Any] = {}
    raw_paths = getattr(args, "addons_path", None)
    if raw_paths:
        cli["addons_paths"] = split_addons_path(raw_paths, Path.cwd())
    for name in (
        "odoo_config",
        "odoo_path",
        "odoo_series",
        "odoo_bin",
        "odoo_python",
        "db_host",
        "db_port",
        "db_user",
        "odoo_timeout",
        "model",
        "fallback_model",
        "api_base",
        "mode",
        "max_steps",
    ):
        value = getattr(args, name, None)
        if value is not None:
            cli[name] = value
    return load_settings(cli)

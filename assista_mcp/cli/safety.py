"""CLI sub-commands for the safety net and integrations: ``mcp-config`` (host configuration)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from assista_mcp import hostconfig
from assista_mcp.cli.common import add_project_flags, settings_from_args


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mcp-config",
        help="print or merge an MCP host's configuration for this server",
        description=(
            "Print the configuration an MCP host needs to start this server (absolute interpreter path, "
            "this project's addons paths), or merge it into the host's file with --write."
        ),
    )
    parser.add_argument("--client", required=True, choices=hostconfig.CLIENTS)
    parser.add_argument("--write", action="store_true", help="merge into the host's configuration file")
    parser.add_argument(
        "--project-dir", default=".", help="project folder for .mcp.json/.cursor/.vscode (default: cwd)"
    )
    add_project_flags(parser)
    parser.set_defaults(func=run_mcp_config)


def run_mcp_config(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    settings.workspace()  # fail early, with the sandbox's message, on a bad addons path
    extra: list[str] = []
    for flag, value in (
        ("--odoo-config", settings.odoo_config),
        ("--odoo-path", settings.odoo_path),
        ("--odoo-bin", settings.odoo_bin),
    ):
        if value is not None:
            extra += [flag, str(Path(value).resolve())]
    command, argv = hostconfig.server_command(settings.addons_paths, extra)
    client: hostconfig.Client = args.client
    if not args.write:
        print(hostconfig.render(client, command, argv), end="")
        return 0
    path = hostconfig.config_path(client, Path(args.project_dir).resolve())
    hostconfig.write(client, path, command, argv)
    print(f"assista-odoo: wrote the {SERVER} entry into {path}")
    return 0


SERVER = hostconfig.SERVER_NAME

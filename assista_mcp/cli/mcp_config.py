"""``assista-odoo mcp-config``: print an MCP host's configuration for this server, or merge it into
the host's file."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from assista_mcp.cli.common import add_odoo_flags, add_project_flags, settings_from_args
from assista_mcp.cli.serve import DEFAULT_PORT
from assista_mcp.config import hostconfig
from assista_mcp.config.auth_token import ENV_VAR, resolve_token
from assista_mcp.config.settings import ENV_PREFIX, SOURCES, Settings

DEFAULT_URL = f"http://127.0.0.1:{DEFAULT_PORT}/mcp"


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mcp-config",
        help="print or merge an MCP host's configuration for this server",
        description=(
            "Print the configuration an MCP host needs to start this server (absolute interpreter path, "
            "this project's addons paths), or merge it into the host's file with --write."
        ),
    )
    parser.add_argument(
        "--client", required=True, choices=hostconfig.CLIENTS, help="the MCP host to configure"
    )
    parser.add_argument("--write", action="store_true", help="merge into the host's configuration file")
    parser.add_argument(
        "--project-dir", default=".", help="project folder for .mcp.json/.cursor/.vscode (default: cwd)"
    )
    parser.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="http: point the host at a running `serve --transport http` (names its bearer token)",
    )
    parser.add_argument("--url", default=DEFAULT_URL, help=f"with --transport http (default {DEFAULT_URL})")
    parser.add_argument(
        "--auth-token-file", metavar="FILE", type=Path, help="the server's token file, if not the default"
    )
    add_project_flags(parser)
    add_odoo_flags(parser)
    parser.set_defaults(func=run_mcp_config)


def run_mcp_config(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    client: hostconfig.Client = args.client
    entry = _http_entry(args, settings) if args.transport == "http" else _stdio_entry(client, settings)
    path = hostconfig.config_path(client, Path(args.project_dir).resolve())
    if not args.write:
        print(hostconfig.render(client, entry), end="")
        print(
            f"assista-odoo: this belongs in {path} (or run again with --write to merge it there)",
            file=sys.stderr,
        )
        return 0
    secret = args.transport == "http" and hostconfig.token_in_file(client)
    hostconfig.write(client, path, entry, private=secret)
    print(f"assista-odoo: wrote the {SERVER} entry into {path}")
    if secret:
        print(
            f"assista-odoo: {path} (your user-level configuration) now holds the server's bearer token "
            "(mode 0600): keep it out of version control and of shared folders.",
            file=sys.stderr,
        )
    return 0


def _say_where_the_token_comes_from(client: hostconfig.Client, source: str) -> None:
    """A project-level file names the token; say how the host gets it (never the token itself)."""
    value = f"${ENV_VAR}" if source == ENV_VAR else f"the content of {source}"
    if client == "vscode":
        how = (
            f"VS Code asks for it once (input {hostconfig.VSCODE_INPUT!r}) and keeps it in its secret "
            f"storage: paste {value}"
        )
    elif source == ENV_VAR:
        how = f"{client} reads it from the environment it starts in: keep {ENV_VAR} set there"
    else:
        how = (
            f'{client} reads it from the environment it starts in: export {ENV_VAR}="$(cat {source})" '
            "(in your shell profile, not in the project)"
        )
    print(
        f"assista-odoo: the bearer token is not written into the project's file (a repository may "
        f"track it); the entry refers to {hostconfig.TOKEN_REFERENCES[client]}. {how}.",
        file=sys.stderr,
    )


# The server reads these PostgreSQL variables too; a host starts it with a near-empty environment.
PG_VARIABLES = ("PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGSERVICE", "PGPASSFILE")
NEVER_WRITTEN = ("db_password", "auth_token")  # secrets stay out of the host's file


def _stdio_entry(client: hostconfig.Client, settings: Settings) -> dict[str, Any]:
    """Everything the server needs, since a host starts it from an unknown folder: every setting
    that is not a default, as its flag (serve has one) or its ASSISTA_* variable."""
    settings.workspace()  # fail early, with the sandbox's message, on a bad addons path
    extra: list[str] = []
    env: dict[str, str] = {}
    for name, source in SOURCES.items():
        if name == "addons_paths" or name in NEVER_WRITTEN or settings.origin(name) == "default":
            continue
        value = getattr(settings, name)
        text = str(Path(value).resolve()) if isinstance(value, Path) else str(value)
        if source.flag_group in ("project", "odoo"):
            extra += [source.flag_for(name), text]
        elif source.flag_group is None:
            env[ENV_PREFIX + name.upper()] = text
    env.update({key: value for key in PG_VARIABLES if (value := os.environ.get(key))})
    if settings.db_password is not None or os.environ.get("PGPASSWORD"):
        print(
            "assista-odoo: the database password is not written into the host's file: put it in "
            "~/.pgpass (or the host's env as PGPASSWORD) yourself.",
            file=sys.stderr,
        )
    command, argv = hostconfig.server_command(settings.addons_paths, extra)
    return hostconfig.entry_for(client, command, argv, env)


def _http_entry(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    """The same token ``serve --transport http`` will use (generated now when there is none yet)."""
    env_token = settings.auth_token.get_secret_value() if settings.auth_token else None
    token = resolve_token(settings.home, args.auth_token_file, env_token)
    if not hostconfig.token_in_file(args.client):
        _say_where_the_token_comes_from(args.client, token.source)
    return hostconfig.http_entry_for(args.client, args.url, token.value)


SERVER = hostconfig.SERVER_NAME

"""``assista-odoo serve``: the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assista_mcp.cli.common import add_odoo_flags, add_project_flags, settings_from_args
from assista_mcp.server import build_server

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="run the MCP server", description="Run the MCP server for MCP hosts."
    )
    add_project_flags(parser)
    add_odoo_flags(parser)
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default loopback)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    server = build_server(settings_from_args(args))
    if args.transport == "stdio":
        server.run("stdio")
        return 0
    if args.host not in LOOPBACK:
        print(
            f"assista-odoo: serving on {args.host}, reachable beyond this machine; "
            "the tools can write files under the addons path.",
            file=sys.stderr,
        )
    server.run("streamable-http", host=args.host, port=args.port)
    return 0

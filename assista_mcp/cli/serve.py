"""``assista-odoo serve``: the MCP server over stdio (default) or streamable HTTP.

Everything that can fail for the user's setup (addons path, settings, port) is checked before
the protocol starts, so a host sees a clear message on stderr and exit code 2 instead of a
half-open connection. On stdio, stdout carries protocol frames only: nothing we or a library
prints may land there.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import socket
import sys
from typing import TYPE_CHECKING, Any

import anyio

from assista_mcp.cli.common import add_odoo_flags, add_project_flags, settings_from_args
from odoo_tools.errors import ConfigError

if TYPE_CHECKING:  # the SDK loads only when a server runs, so other commands start fast
    from mcp.server.mcpserver import MCPServer

LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_PORT = 8765


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the MCP server",
        description="Run the MCP server for MCP hosts (stdio by default, or streamable HTTP).",
    )
    add_project_flags(parser)
    add_odoo_flags(parser)
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default loopback)")
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT})"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Stray prints while tools are imported and registered go to stderr, never the wire.
    with contextlib.redirect_stdout(sys.stderr):
        from assista_mcp.server import build_server

        server = build_server(settings_from_args(args))
    if args.transport == "stdio":
        serve_stdio(server)
        return 0
    _check_port_free(args.host, args.port)
    if args.host not in LOOPBACK:
        print(
            f"assista-odoo: serving on {args.host}, reachable beyond this machine; "
            "the tools can write files under the addons path.",
            file=sys.stderr,
        )
    print(f"assista-odoo: MCP endpoint http://{_url_host(args.host)}:{args.port}/mcp", file=sys.stderr)
    server.run("streamable-http", host=args.host, port=args.port)
    return 0


def serve_stdio(server: MCPServer[Any]) -> None:
    """Serve ``server`` on stdin/stdout until the client closes stdin."""
    from assista_mcp.cli.serve_stdio import loop_stdio_supported, serve_loop_stdio

    if loop_stdio_supported():
        anyio.run(serve_loop_stdio, server, backend="asyncio")
    else:  # stdin from a regular file: the SDK's threaded transport reads any file
        server.run("stdio")


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not between 1 and 65535")
    return value


def _check_port_free(host: str, port: int) -> None:
    """Fail before serving, with a next step, when the address cannot be bound."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConfigError(f"Cannot resolve --host {host!r}: {exc}.", "Use 127.0.0.1.") from exc
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            hint = "Pick another --port." if exc.errno == errno.EADDRINUSE else "Check --host and --port."
            raise ConfigError(f"Cannot listen on {host}:{port}: {exc.strerror}.", hint) from exc


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host

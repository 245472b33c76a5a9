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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assista_mcp.cli.common import (
    add_migrate_flags,
    add_odoo_flags,
    add_project_flags,
    positive_int,
    settings_from_args,
)
from assista_mcp.config.auth_token import resolve_token
from assista_mcp.config.settings import Settings
from odoo_tools.errors import ConfigError

if TYPE_CHECKING:  # the SDK loads only when a server runs, so other commands start fast
    from assista_mcp.server.http_transport import HttpOptions

DEFAULT_PORT = 8765
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_REQUEST_TIMEOUT = 30.0


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the MCP server",
        description="Run the MCP server for MCP hosts (stdio by default, or streamable HTTP).",
    )
    add_project_flags(parser)
    add_odoo_flags(parser)
    add_migrate_flags(parser)
    parser.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio: the host starts the server; http: streamable HTTP on --host:--port",
    )
    parser.add_argument("--host", help="HTTP bind address (default: 127.0.0.1, loopback)")
    parser.add_argument("--port", type=_port, help=f"HTTP port (default: {DEFAULT_PORT})")
    _add_http_security_flags(parser)
    parser.set_defaults(func=run)


def _add_http_security_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("http security")
    group.add_argument(
        "--auth-token-file",
        metavar="FILE",
        type=Path,
        help="bearer token clients must send (default: ASSISTA_AUTH_TOKEN, else a token generated "
        "on first use in the user data folder)",
    )
    group.add_argument(
        "--no-auth", action="store_true", help="accept requests without a token (DANGEROUS: any account)"
    )
    group.add_argument(
        "--allow-remote", action="store_true", help="allow a --host reachable from other machines"
    )
    group.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host header value to accept (a DNS name of this machine); repeatable",
    )
    group.add_argument(
        "--max-connections",
        type=positive_int,
        default=DEFAULT_MAX_CONNECTIONS,
        help=f"open HTTP connections at most (default {DEFAULT_MAX_CONNECTIONS})",
    )
    group.add_argument(
        "--request-timeout",
        type=float,
        default=DEFAULT_REQUEST_TIMEOUT,
        metavar="SECONDS",
        help=f"time a client has to send a whole request (default {DEFAULT_REQUEST_TIMEOUT:g})",
    )


def _http_only_flags(args: argparse.Namespace) -> list[str]:
    """The HTTP flags given on the command line (a stdio server would silently ignore them)."""
    given = {
        "--host": args.host is not None,
        "--port": args.port is not None,
        "--auth-token-file": args.auth_token_file is not None,
        "--no-auth": args.no_auth,
        "--allow-remote": args.allow_remote,
        "--allowed-host": bool(args.allowed_host),
        "--max-connections": args.max_connections != DEFAULT_MAX_CONNECTIONS,
        "--request-timeout": args.request_timeout != DEFAULT_REQUEST_TIMEOUT,
    }
    return [flag for flag, used in given.items() if used]


def run(args: argparse.Namespace) -> int:
    if args.transport == "stdio" and (flags := _http_only_flags(args)):
        raise ConfigError(
            f"{', '.join(flags)} only {'applies' if len(flags) == 1 else 'apply'} to the HTTP transport, "
            "but this server would speak stdio.",
            "Add --transport http, or leave those flags out for a host that starts the server itself.",
        )
    args.host = args.host or "127.0.0.1"
    args.port = args.port or DEFAULT_PORT
    settings = settings_from_args(args)
    options = _http_options(args, settings) if args.transport == "http" else None
    if options is not None:
        from assista_mcp.server.http_transport import check_exposure

        check_exposure(options)
        _check_port_free(args.host, args.port)
    # Stray prints while tools are imported and registered go to stderr, never the wire.
    with contextlib.redirect_stdout(sys.stderr):
        from assista_mcp.server.mcp_server import build_server

        server = build_server(settings)
    if options is None:
        from assista_mcp.server.stdio_transport import serve_stdio

        serve_stdio(server)
        return 0
    from assista_mcp.server.http_transport import announce, serve_http

    announce(options)
    serve_http(server, options)
    return 0


def _http_options(args: argparse.Namespace, settings: Settings) -> HttpOptions:
    from assista_mcp.server.http_transport import HttpOptions

    token = None
    if not args.no_auth:
        env_token = settings.auth_token.get_secret_value() if settings.auth_token else None
        token = resolve_token(settings.home, args.auth_token_file, env_token)
    return HttpOptions(
        host=args.host,
        port=args.port,
        token=token,
        allow_remote=args.allow_remote,
        allowed_hosts=tuple(args.allowed_host),
        max_connections=args.max_connections,
        request_timeout=args.request_timeout,
    )


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

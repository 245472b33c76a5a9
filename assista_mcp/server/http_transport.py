"""``serve --transport http``: the SDK's streamable HTTP app behind our guards, run by uvicorn.

uvicorn is driven directly (not through ``MCPServer.run``) for what the SDK's runner does not
expose: our h11 protocol with request timeouts and a connection cap, ``limit_concurrency``, the
keep-alive and graceful-shutdown timeouts, and the bearer-token middleware around the app.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import uvicorn

from assista_mcp.config.auth_token import AuthToken
from assista_mcp.server.http_guard import BearerGuard, client_hosts, is_loopback, transport_security
from assista_mcp.server.http_limits import (
    guarded_protocol,
    limits_for,
    out_of_descriptors_is_not_fatal,
    raise_fd_limit,
)
from odoo_tools.errors import ConfigError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

MCP_PATH = "/mcp"
SHUTDOWN_GRACE_SECONDS = 3  # then running calls are cancelled: odoo-bin killed, databases dropped
# A shutdown still waiting this long (a flood of idle connections can hold uvicorn) is forced; a
# process alive long after that exits anyway: a host's SIGTERM must end the server.
FORCE_EXIT_AFTER_SECONDS = 5.0
HARD_EXIT_AFTER_SECONDS = 10.0


@dataclass(frozen=True)
class HttpOptions:
    host: str
    port: int
    token: AuthToken | None  # None: --no-auth
    allow_remote: bool
    allowed_hosts: tuple[str, ...]
    max_connections: int
    request_timeout: float


def check_exposure(options: HttpOptions) -> None:
    """Beyond loopback only when asked for, and never without authentication."""
    if is_loopback(options.host):
        return
    if not options.allow_remote:
        raise ConfigError(
            f"--host {options.host} is reachable from other machines; refusing without --allow-remote.",
            "Serve on 127.0.0.1 (the default), or add --allow-remote if other machines must connect.",
        )
    if options.token is None:
        raise ConfigError(
            "--no-auth together with a non-loopback --host would let anyone on the network edit files.",
            "Drop --no-auth: clients send the token that `assista-odoo mcp-config --transport http` writes.",
        )


def announce(options: HttpOptions) -> None:
    """The URLs a client can use and where the token is; never the token itself."""
    for name in client_hosts(options.host):
        print(f"assista-odoo: MCP endpoint http://{name}:{options.port}{MCP_PATH}", file=sys.stderr)
    if options.token is None:
        print(
            "assista-odoo: WARNING: --no-auth: ANY program or account on this machine can drive this "
            "server, write files under the addons path and run code as you. Use it only in a sandbox.",
            file=sys.stderr,
        )
    else:
        print(
            "assista-odoo: clients must send 'Authorization: Bearer <token>' "
            f"(token from {options.token.source}); "
            "`assista-odoo mcp-config --transport http --client ...` configures a host.",
            file=sys.stderr,
        )
    if not is_loopback(options.host):
        print(
            f"assista-odoo: serving on {options.host}, reachable beyond this machine; "
            "the tools can write files under the addons path.",
            file=sys.stderr,
        )


def serve_http(server: MCPServer[Any], options: HttpOptions) -> None:
    limits = limits_for(raise_fd_limit(), options.max_connections, options.request_timeout)
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        transport_security=transport_security(options.host, options.port, options.allowed_hosts),
        host=options.host,
    )
    guarded = app if options.token is None else BearerGuard(app, options.token.value)
    config = uvicorn.Config(
        guarded,
        host=options.host,
        port=options.port,
        http=guarded_protocol(limits),
        limit_concurrency=limits.max_connections + 1,  # requests beyond the cap get 503
        timeout_keep_alive=limits.keep_alive_timeout,
        h11_max_incomplete_event_size=limits.max_header_bytes,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        log_level="warning",
        access_log=False,
        lifespan="on",
        loop="asyncio",
    )
    asyncio.run(_serve(uvicorn.Server(config)))


async def _serve(server: uvicorn.Server) -> None:
    asyncio.get_running_loop().set_exception_handler(out_of_descriptors_is_not_fatal)
    threading.Thread(target=_shutdown_watchdog, args=(server,), daemon=True, name="assista-exit").start()
    await server.serve()


def _shutdown_watchdog(server: uvicorn.Server) -> None:
    """Runs beside the event loop, so a loop too busy to finish shutting down is still ended."""
    while not server.should_exit:
        time.sleep(0.5)
    time.sleep(FORCE_EXIT_AFTER_SECONDS)
    server.force_exit = True
    time.sleep(HARD_EXIT_AFTER_SECONDS)
    print("assista-odoo: the HTTP server did not stop in time; exiting", file=sys.stderr)
    os._exit(143)

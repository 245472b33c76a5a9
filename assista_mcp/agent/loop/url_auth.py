"""The bearer token the agent sends to an ``--mcp-url`` server, found as ``serve`` finds its own.

``serve --transport http`` refuses requests without ``Authorization: Bearer <token>``. The agent
takes the token from ``--auth-token-file``, else ``ASSISTA_AUTH_TOKEN``, else, for a loopback URL
only, the token file a local server generated in the data folder (a server on another machine has
its own) and only when the socket listening there belongs to our account (see ``listeners``).
That check runs at start and again on every new connection (``own_listener_transport``): after
our server stops, another account can bind the port, and the client's next connection must not
carry the token to it. The header lives only in the HTTP client: never in a message, an event or a
session.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import socket
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import urlsplit

import httpcore2
import httpx2

from assista_mcp.agent.loop.listeners import (
    connection_owner,
    endpoint,
    foreign_owners,
    owners_readable,
    read_listeners,
)
from assista_mcp.config.auth_token import AuthToken, existing_default_token, resolve_token
from odoo_tools.errors import ConfigError

LOOPBACK_NAMES = ("localhost", "localhost.localdomain")
PROBE_TIMEOUT = 10.0
OWNER_RETRIES, OWNER_RETRY_SECONDS = 5, 0.01
_PROBE = {"jsonrpc": "2.0", "id": 0, "method": "ping"}
_ACCEPT = "application/json, text/event-stream"


def bearer_token(url: str, home: Path, token_file: Path | None, env_token: str | None) -> AuthToken | None:
    """The token for ``url``, or None (the server then answers 401 unless it runs with --no-auth)."""
    if token_file is not None or env_token:
        return resolve_token(home, token_file, env_token)
    if is_loopback(url):
        token = existing_default_token(home)
        if token is not None:
            refuse_foreign_listener(url)
            return dataclasses.replace(token, own_listener_only=True)
        return token
    return None


def refuse_foreign_listener(url: str) -> None:
    """Raise when another account listens on the URL's loopback port: it would receive our token."""
    listeners = read_listeners()
    if listeners is None:  # no /proc/net (non-Linux): the owner is unknown, the token is sent as before
        return
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    others = foreign_owners(listeners, port, os.getuid())
    if others:
        owners = ", ".join(str(uid) for uid in sorted(others))
        raise ConfigError(
            f"The server listening on {parts.hostname}:{port} belongs to another account (uid {owners}), "
            "so the token from the data folder was not sent to it.",
            "Start your own `assista-odoo serve --transport http` on a free port, or, if you trust that "
            "server, pass its token explicitly with --auth-token-file or ASSISTA_AUTH_TOKEN.",
        )


class _OwnListenerBackend(httpcore2.AsyncNetworkBackend):
    """Connects as usual, then refuses the connection unless our account owns its other end."""

    def __init__(self) -> None:
        self._inner = httpcore2.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        stream = await self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        if owners_readable():
            sock: socket.socket = stream.get_extra_info("socket")
            ours, theirs = endpoint(sock.getsockname()), endpoint(sock.getpeername())
            owner = connection_owner(ours, theirs)
            for _ in range(OWNER_RETRIES):  # the table may lag the connection by a moment
                if owner is not None:
                    break
                await self._inner.sleep(OWNER_RETRY_SECONDS)
                owner = connection_owner(ours, theirs)
            if owner != os.getuid():
                await stream.aclose()
                who = "an unknown account" if owner is None else f"another account (uid {owner})"
                raise httpcore2.ConnectError(
                    f"the server now listening on {host}:{port} belongs to {who}: the token from the "
                    "data folder was not sent. Restart your own `assista-odoo serve --transport http`."
                )
        return stream

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        return await self._inner.connect_unix_socket(path, timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


def own_listener_transport() -> httpx2.AsyncHTTPTransport:
    """An HTTP transport whose every new connection is checked (``_OwnListenerBackend``).

    httpx2's transport takes no network backend, so its pool is replaced by one built the same
    way with ours (the tests connect through it to our own and another account's listener).
    """
    transport = httpx2.AsyncHTTPTransport()
    transport._pool = httpcore2.AsyncConnectionPool(
        ssl_context=transport._pool._ssl_context,
        max_connections=100,
        max_keepalive_connections=20,
        keepalive_expiry=5.0,
        network_backend=_OwnListenerBackend(),
    )
    return transport


def is_loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def refusal(
    url: str, headers: Mapping[str, str], own_listener_only: bool = False
) -> ConfigError | None:
    """Why an HTTP MCP server refused us, when it says so with a status (the SDK's error carries
    only "Server returned an error response"); None when it is not an authentication refusal."""
    transport = own_listener_transport() if own_listener_only else None
    try:
        async with httpx2.AsyncClient(
            headers=dict(headers), timeout=PROBE_TIMEOUT, transport=transport
        ) as http:
            response = await http.post(url, json=_PROBE, headers={"Accept": _ACCEPT})
    except httpx2.HTTPError:
        return None
    if response.status_code not in (401, 403):
        return None
    sent = "the token sent is not the one it accepts" if headers else "no bearer token was sent"
    return ConfigError(
        f"The MCP server at {url} refused the connection (HTTP {response.status_code}): {sent}.",
        "Pass that server's token with --auth-token-file FILE or ASSISTA_AUTH_TOKEN (`assista-odoo "
        "serve --transport http` prints where its token file is).",
    )

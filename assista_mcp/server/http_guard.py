"""Who may talk to ``serve --transport http``: the bearer token, and the Host/Origin allow-lists.

The token check wraps the whole ASGI app, so no path (not even a 404) answers without it. Host and
Origin are checked by the SDK's DNS-rebinding protection, fed with allow-lists built here for the
actual bind address and port: the SDK turns it on by itself only for three literal hosts.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import json
import socket
from collections.abc import Iterable
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class BearerGuard:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        await _unauthorized(scope, send)

    def _authorized(self, scope: Scope) -> bool:
        given = b""
        for name, value in scope.get("headers", ()):
            if name.lower() == b"authorization":
                scheme, _, credentials = value.partition(b" ")
                if scheme.lower() == b"bearer":
                    given = credentials.strip()
        # Constant time: how much of a guess matched must not show in the response time.
        return hmac.compare_digest(given, self._token)


async def _unauthorized(scope: Scope, send: Send) -> None:
    gave_one = any(name.lower() == b"authorization" for name, _ in scope.get("headers", ()))
    challenge = 'Bearer realm="assista-odoo"' + (', error="invalid_token"' if gave_one else "")
    body = json.dumps(
        {
            "error": "invalid_token" if gave_one else "unauthorized",
            "error_description": "Send 'Authorization: Bearer <token>'; `assista-odoo mcp-config "
            "--transport http` writes it into your MCP host's configuration.",
        }
    ).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode("ascii")),
                (b"www-authenticate", challenge.encode("ascii")),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` resolves to is on this machine's loopback interface."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return False
    return bool(infos) and all(ipaddress.ip_address(_address(info)).is_loopback for info in infos)


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def client_hosts(bind_host: str) -> list[str]:
    """Host names a client can put in a URL for this bind address (never 0.0.0.0 or ::)."""
    try:
        unspecified = ipaddress.ip_address(bind_host).is_unspecified
    except ValueError:
        unspecified = False
    if unspecified:
        names = ["127.0.0.1" if ":" not in bind_host else "[::1]"]
        fqdn = socket.getfqdn()
        return [*names, fqdn] if fqdn and fqdn not in ("localhost", "localhost.localdomain") else names
    return [url_host(bind_host)]


def transport_security(
    bind_host: str, port: int, extra_hosts: Iterable[str] = ()
) -> TransportSecuritySettings:
    """Host/Origin allow-lists for this exact port: the loopback names, the bind address, and for
    a wildcard bind this machine's names and addresses (plus ``--allowed-host`` names)."""
    names = [*LOOPBACK_NAMES, url_host(bind_host), *client_hosts(bind_host)]
    if not is_loopback(bind_host):
        names += _machine_names()
    names += [url_host(h) for h in extra_hosts]
    unique = list(dict.fromkeys(names))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:{port}" for name in unique],
        allowed_origins=[f"{scheme}://{name}:{port}" for name in unique for scheme in ("http", "https")],
    )


def _machine_names() -> list[str]:
    hostname = socket.gethostname()
    names = [hostname, socket.getfqdn()]
    with contextlib.suppress(socket.gaierror):
        names += [url_host(_address(info)) for info in socket.getaddrinfo(hostname, None)]
    return [n for n in names if n]


def _address(info: tuple[Any, ...]) -> str:
    return str(info[4][0]).split("%")[0]  # without an IPv6 zone

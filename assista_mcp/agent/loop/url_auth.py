"""The bearer token the agent sends to an ``--mcp-url`` server, found as ``serve`` finds its own.

``serve --transport http`` refuses requests without ``Authorization: Bearer <token>``. The agent
takes the token from ``--auth-token-file``, else ``ASSISTA_AUTH_TOKEN``, else, for a loopback URL
only, the token file a local server generated in the data folder (a server on another machine has
its own). The header lives only in the HTTP client: never in a message, an event or a session.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from urllib.parse import urlsplit

from assista_mcp.auth_token import AuthToken, existing_default_token, resolve_token

LOOPBACK_NAMES = ("localhost", "localhost.localdomain")


def bearer_token(url: str, home: Path, token_file: Path | None, env_token: str | None) -> AuthToken | None:
    """The token for ``url``, or None (the server then answers 401 unless it runs with --no-auth)."""
    if token_file is not None or env_token:
        return resolve_token(home, token_file, env_token)
    if is_loopback(url):
        return existing_default_token(home)
    return None


def is_loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

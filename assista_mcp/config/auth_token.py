"""The bearer token that guards ``serve --transport http``.

Following the MCP authorization guidance for local servers: a random token is generated on first
use and kept in a file only the user can read (0600, in the user data folder); the server accepts
a request only with ``Authorization: Bearer <token>``, and ``mcp-config`` writes that header into
the host's configuration. ``--auth-token-file`` or ``ASSISTA_AUTH_TOKEN`` supply another token.
The token itself is never printed: messages name the file or the variable it came from.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import ConfigError

TOKEN_FILE_NAME = "http-auth-token"
ENV_VAR = "ASSISTA_AUTH_TOKEN"
MIN_LENGTH = 16  # a shorter secret can be guessed over a fast loopback connection


@dataclass(frozen=True)
class AuthToken:
    value: str
    source: str  # where it came from, for messages ("the file X", "ASSISTA_AUTH_TOKEN")
    own_listener_only: bool = False  # found by itself for a loopback URL: sent only to our account


def default_token_path(home: Path) -> Path:
    return home / TOKEN_FILE_NAME


def resolve_token(home: Path, token_file: Path | None, env_value: str | None) -> AuthToken:
    """``--auth-token-file`` > ``ASSISTA_AUTH_TOKEN`` > the generated file under ``home``."""
    if token_file is not None:
        token = _checked(_read_private(token_file), f"--auth-token-file {token_file}")
        return AuthToken(token, str(token_file))
    if env_value:
        return AuthToken(_checked(env_value.strip(), ENV_VAR), ENV_VAR)
    path = default_token_path(home)
    return AuthToken(_checked(_load_or_create(path), str(path)), str(path))


def existing_default_token(home: Path) -> AuthToken | None:
    """The token a local server generated under ``home``, or None when there is none (a client
    never creates it: a server without the file was started with another token, or none)."""
    path = default_token_path(home)
    if not path.exists():
        return None
    return AuthToken(_checked(_read_private(path), str(path)), str(path))


def _checked(token: str, source: str) -> str:
    if len(token) < MIN_LENGTH or any(c.isspace() or not c.isprintable() for c in token):
        raise ConfigError(
            f"The HTTP auth token from {source} is too short or has spaces or control characters.",
            f"Use at least {MIN_LENGTH} printable characters, e.g. `python -c "
            "'import secrets; print(secrets.token_urlsafe(32))'`.",
        )
    return token


def _load_or_create(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # made earlier, or by a server starting at the same moment
        return _read_private(path)
    try:
        os.write(fd, (token + "\n").encode("ascii"))
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    os.close(fd)
    return token


def _read_private(path: Path) -> str:
    """The token in ``path``, refused when another account could read or replace it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ConfigError(
            f"Cannot read the HTTP auth token file {path}: {exc.strerror}.",
            "Give a readable file with --auth-token-file, or delete it to have a new token generated.",
        ) from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"The HTTP auth token file {path} is not a regular file.")
        if info.st_mode & 0o077 or info.st_uid != os.getuid():
            raise ConfigError(
                f"The HTTP auth token file {path} can be read or changed by other accounts.",
                f"Run `chmod 600 {path}` (and own it), or delete it to have a new token generated.",
            )
        text = handle.read(4096).decode("utf-8", errors="replace")
    return text.strip()

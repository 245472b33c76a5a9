"""MCP host configuration: the entry each host needs to start ``assista-odoo serve``.

The command is the absolute path of the current interpreter (``python -m assista_mcp``), so the
host finds the server whatever its PATH is. Merging keeps every other entry of the host's file.

The HTTP server's bearer token never goes into a project-level file (``.mcp.json``,
``.cursor/mcp.json``, ``.vscode/mcp.json``: a repository may track them, and a pull request shows
them): those entries name it through the host's own substitution instead, ``${ASSISTA_AUTH_TOKEN}``
for Claude Code, ``${env:ASSISTA_AUTH_TOKEN}`` for Cursor, and for VS Code an input it asks for once
and keeps in its secret storage. Only a user-level file (Codex's) holds the token itself, 0600.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import tomlkit
import tomlkit.exceptions

from assista_mcp.config import jsonc
from assista_mcp.config.auth_token import ENV_VAR
from odoo_tools.errors import ConfigError
from odoo_tools.files import atomic_write_bytes

Client = Literal["claude-desktop", "claude-code", "cursor", "vscode", "codex"]
CLIENTS: tuple[Client, ...] = ("claude-desktop", "claude-code", "cursor", "vscode", "codex")
SERVER_NAME = "assista-odoo"
VSCODE_INPUT = "assista-odoo-token"
# How each project-level host names the token without holding it (its documented substitution).
TOKEN_REFERENCES: dict[Client, str] = {
    "claude-code": "${" + ENV_VAR + "}",
    "cursor": "${env:" + ENV_VAR + "}",
    "vscode": "${input:" + VSCODE_INPUT + "}",
}
_VSCODE_TOKEN_INPUT = {
    "type": "promptString",
    "id": VSCODE_INPUT,
    "description": "Bearer token of assista-odoo serve --transport http (the content of its token file)",
    "password": True,
}


def token_in_file(client: Client) -> bool:
    """Whether ``client``'s file holds the token itself (a user-level file) or a reference to it."""
    return client not in TOKEN_REFERENCES


def server_command(addons_paths: Sequence[Path], extra_args: Sequence[str] = ()) -> tuple[str, list[str]]:
    paths = ",".join(str(p.resolve()) for p in addons_paths)
    args = ["-m", "assista_mcp", "serve"]
    if paths:
        args += ["--addons-path", paths]
    return sys.executable, [*args, *extra_args]


def entry_for(
    client: Client, command: str, args: list[str], env: dict[str, str] | None = None
) -> dict[str, Any]:
    """The stdio server entry in the host's own shape."""
    if client in ("claude-code", "vscode"):
        return {"type": "stdio", "command": command, "args": args, "env": dict(env or {})}
    return {"command": command, "args": args, "env": dict(env or {})}


def http_entry_for(client: Client, url: str, token: str | None) -> dict[str, Any]:
    """The entry for a running ``serve --transport http``, with its bearer token as a header: the
    token itself only for a user-level file, else the host's reference to it."""
    headers = {"Authorization": f"Bearer {TOKEN_REFERENCES.get(client, token)}"} if token else {}
    if client == "claude-desktop":
        raise ConfigError(
            "Claude Desktop starts local servers over stdio; it has no setting for an HTTP server's URL.",
            "Run mcp-config without --transport http for Claude Desktop.",
        )
    if client == "codex":
        return {"url": url, "http_headers": headers}
    if client == "cursor":
        return {"url": url, "headers": headers}
    return {"type": "http", "url": url, "headers": headers}


def config_path(client: Client, project_dir: Path, home: Path | None = None) -> Path:
    """Where the host reads its configuration (project files for project-scoped hosts)."""
    home = home or Path.home()
    if client == "claude-code":
        return project_dir / ".mcp.json"
    if client == "cursor":
        return project_dir / ".cursor" / "mcp.json"
    if client == "vscode":
        return project_dir / ".vscode" / "mcp.json"
    if client == "codex":
        return home / ".codex" / "config.toml"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", home)) / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


def render(client: Client, entry: dict[str, Any]) -> str:
    """The configuration text to paste, for a host with no configuration yet."""
    return merge(client, "", entry)


def merge(client: Client, existing: str, entry: dict[str, Any]) -> str:
    """``existing`` with our entry added or replaced; everything else kept."""
    if client == "codex":
        return _merge_toml(existing, entry)
    key = "servers" if client == "vscode" else "mcpServers"
    try:
        # VS Code's (and others') files are JSON with comments: read them as such.
        document: dict[str, Any] = jsonc.loads(existing) if existing.strip() else {}
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"The existing {client} configuration is not valid JSON ({exc}).",
            "Fix or move it, then run mcp-config --write again.",
        ) from exc
    if not isinstance(document, dict) or not isinstance(document.get(key, {}), dict):
        raise ConfigError(f"The existing {client} configuration has an unexpected shape.", "Fix it by hand.")
    inputs = _inputs_with_token(document) if TOKEN_REFERENCES["vscode"] in json.dumps(entry) else None
    if jsonc.has_comments(existing):  # edit in place: the user's comments stay
        text = jsonc.set_member(existing, key, SERVER_NAME, entry)
        return text if inputs is None else jsonc.set_top(text, "inputs", inputs)
    document.setdefault(key, {})[SERVER_NAME] = entry
    if inputs is not None:
        document["inputs"] = inputs
    return json.dumps(document, indent=2) + "\n"


def _inputs_with_token(document: dict[str, Any]) -> list[Any]:
    """VS Code's ``inputs`` with the one that asks for our token (added once)."""
    inputs = document.get("inputs", [])
    if not isinstance(inputs, list):
        raise ConfigError("The existing vscode configuration's inputs is not a list.", "Fix it by hand.")
    if any(isinstance(i, dict) and i.get("id") == VSCODE_INPUT for i in inputs):
        return inputs
    return [*inputs, _VSCODE_TOKEN_INPUT]


def write(client: Client, path: Path, entry: dict[str, Any], *, private: bool = False) -> str:
    """Merge ``entry`` into ``path``; ``private`` (the entry holds a secret) makes the file 0600."""
    existing = path.read_text(encoding="utf-8") if path.exists() else ""
    text = merge(client, existing, entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, text.encode("utf-8"), mode=0o600 if private else None)
    return text


def _merge_toml(existing: str, entry: dict[str, Any]) -> str:
    """Our ``[mcp_servers.assista-odoo]`` table replaced (with its sub-tables); comments, order
    and every other table kept as they were."""
    try:
        document = tomlkit.parse(existing)
    except tomlkit.exceptions.ParseError as exc:
        raise ConfigError(
            f"The existing codex configuration is not valid TOML ({exc}).",
            "Fix or move it, then run mcp-config --write again.",
        ) from exc
    servers = document.get("mcp_servers")
    if servers is None:
        servers = tomlkit.table(is_super_table=True)
        document["mcp_servers"] = servers
    elif not isinstance(servers, dict):
        raise ConfigError("The existing codex configuration has an unexpected shape.", "Fix it by hand.")
    table = tomlkit.table()
    for key, value in entry.items():
        if isinstance(value, dict):
            inline = tomlkit.inline_table()
            inline.update(value)
            table[key] = inline
        else:
            table[key] = value
    servers[SERVER_NAME] = table
    return tomlkit.dumps(document)

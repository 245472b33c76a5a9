"""MCP host configuration: the entry each host needs to start ``assista-odoo serve``.

The command is the absolute path of the current interpreter (``python -m assista_mcp``), so the
host finds the server whatever its PATH is. Merging keeps every other entry of the host's file.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from odoo_tools.errors import ConfigError
from odoo_tools.files import atomic_write_bytes

Client = Literal["claude-desktop", "claude-code", "cursor", "vscode", "codex"]
CLIENTS: tuple[Client, ...] = ("claude-desktop", "claude-code", "cursor", "vscode", "codex")
SERVER_NAME = "assista-odoo"


def server_command(addons_paths: Sequence[Path], extra_args: Sequence[str] = ()) -> tuple[str, list[str]]:
    paths = ",".join(str(p.resolve()) for p in addons_paths)
    args = ["-m", "assista_mcp", "serve"]
    if paths:
        args += ["--addons-path", paths]
    return sys.executable, [*args, *extra_args]


def entry_for(client: Client, command: str, args: list[str]) -> dict[str, Any]:
    """The server entry in the host's own shape."""
    if client in ("claude-code", "vscode"):
        return {"type": "stdio", "command": command, "args": args, "env": {}}
    return {"command": command, "args": args, "env": {}}


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


def render(client: Client, command: str, args: list[str]) -> str:
    """The configuration text to paste, for a host with no configuration yet."""
    return merge(client, "", command, args)


def merge(client: Client, existing: str, command: str, args: list[str]) -> str:
    """``existing`` with our entry added or replaced; everything else kept."""
    if client == "codex":
        return _merge_toml(existing, command, args)
    key = "servers" if client == "vscode" else "mcpServers"
    try:
        document: dict[str, Any] = json.loads(existing) if existing.strip() else {}
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"The existing {client} configuration is not valid JSON ({exc}).",
            "Fix or move it, then run mcp-config --write again.",
        ) from exc
    if not isinstance(document, dict) or not isinstance(document.get(key, {}), dict):
        raise ConfigError(f"The existing {client} configuration has an unexpected shape.", "Fix it by hand.")
    document.setdefault(key, {})[SERVER_NAME] = entry_for(client, command, args)
    return json.dumps(document, indent=2) + "\n"


def write(client: Client, path: Path, command: str, args: list[str]) -> str:
    existing = path.read_text(encoding="utf-8") if path.exists() else ""
    text = merge(client, existing, command, args)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, text.encode("utf-8"))
    return text


def _toml_string(value: str) -> str:
    # JSON string escapes are valid TOML basic-string escapes for what we write.
    return json.dumps(value)


def _merge_toml(existing: str, command: str, args: list[str]) -> str:
    section = (
        f"[mcp_servers.{SERVER_NAME}]\n"
        f"command = {_toml_string(command)}\n"
        f"args = [{', '.join(_toml_string(a) for a in args)}]\n"
        "env = {}\n"
    )
    header = re.compile(rf"^\[mcp_servers\.\"?{re.escape(SERVER_NAME)}\"?\]\s*$", re.MULTILINE)
    match = header.search(existing)
    if match is None:
        separator = (
            "" if not existing or existing.endswith("\n\n") else ("\n" if existing.endswith("\n") else "\n\n")
        )
        return existing + separator + section
    # Our entry ends at the next table that is not one of its own sub-tables ([...assista-odoo.env]):
    # those are replaced with it, or the new inline ``env = {}`` would declare ``env`` twice.
    own_sub_table = rf"mcp_servers\.\"?{re.escape(SERVER_NAME)}\"?\."
    following = re.compile(rf"^\[(?!{own_sub_table})", re.MULTILINE).search(existing, match.end())
    end = following.start() if following else len(existing)
    tail = existing[end:]
    return existing[: match.start()] + section + ("\n" + tail if tail else "")

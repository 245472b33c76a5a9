"""mcp-config: each host's entry, validated against the host's documented shape, and safe merging."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from assista_mcp.cli import build_parser, main
from odoo_tools.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

STDIO_ENTRY = {
    "type": "object",
    "required": ["command"],
    "properties": {
        "type": {"const": "stdio"},
        "command": {"type": "string", "pattern": "^/"},
        "args": {"type": "array", "items": {"type": "string"}},
        "env": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "additionalProperties": False,
}
# Claude Desktop, Cursor: {"mcpServers": {name: {command, args, env}}}
MCP_SERVERS = {
    "type": "object",
    "required": ["mcpServers"],
    "properties": {"mcpServers": {"type": "object", "additionalProperties": STDIO_ENTRY}},
}
# Claude Code .mcp.json: same key, entries carry "type": "stdio"
CLAUDE_CODE = {
    "type": "object",
    "required": ["mcpServers"],
    "properties": {
        "mcpServers": {
            "type": "object",
            "additionalProperties": {**STDIO_ENTRY, "required": ["type", "command"]},
        }
    },
}
# VS Code .vscode/mcp.json: {"servers": {name: {"type": "stdio", command, args, env}}}
VSCODE = {
    "type": "object",
    "required": ["servers"],
    "properties": {
        "servers": {
            "type": "object",
            "additionalProperties": {**STDIO_ENTRY, "required": ["type", "command"]},
        }
    },
}
SCHEMAS = {"claude-desktop": MCP_SERVERS, "cursor": MCP_SERVERS, "claude-code": CLAUDE_CODE, "vscode": VSCODE}


def _print_config(client: str, addons: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["mcp-config", "--client", client, "--addons-path", str(addons)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("client", sorted(SCHEMAS))
def test_json_hosts_match_their_documented_shape(
    client: str, addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(_print_config(client, addons, capsys))
    jsonschema.validate(document, SCHEMAS[client])
    entry = next(iter(document["mcpServers" if client != "vscode" else "servers"].values()))
    assert entry["command"] == sys.executable
    assert entry["args"][:3] == ["-m", "assista_mcp", "serve"]
    assert entry["args"][entry["args"].index("--addons-path") + 1] == str(addons.resolve())


def test_codex_config_is_valid_toml(
    addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parsed = tomllib.loads(_print_config("codex", addons, capsys))
    entry = parsed["mcp_servers"]["assista-odoo"]
    assert entry["command"] == sys.executable
    assert entry["args"][-1] == str(addons.resolve())


def test_write_merges_and_keeps_other_servers(addons: Path, isolated_env: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".vscode").mkdir(parents=True)
    target = project / ".vscode" / "mcp.json"
    target.write_text(
        json.dumps({"servers": {"other": {"type": "stdio", "command": "/bin/true"}}, "inputs": []})
    )
    argv = ["mcp-config", "--client", "vscode", "--write", "--project-dir", str(project)]
    assert main([*argv, "--addons-path", str(addons)]) == 0
    assert main([*argv, "--addons-path", str(addons)]) == 0  # idempotent
    document: dict[str, Any] = json.loads(target.read_text())
    assert set(document["servers"]) == {"other", "assista-odoo"}
    assert document["inputs"] == []
    jsonschema.validate(document, VSCODE)


STDIO_CODEX = {"command": "/usr/bin/python3", "args": ["-m", "assista_mcp", "serve"], "env": {}}


def test_codex_write_replaces_only_our_section(addons: Path, isolated_env: Path, tmp_path: Path) -> None:
    from assista_mcp.config import hostconfig

    existing = (
        'model = "o3"\n\n[mcp_servers.assista-odoo]\ncommand = "old"\nargs = []\n\n'
        '[mcp_servers.x]\ncommand = "y"\n'
    )
    merged = hostconfig.merge("codex", existing, STDIO_CODEX)
    parsed = tomllib.loads(merged)
    assert parsed["model"] == "o3"
    assert parsed["mcp_servers"]["x"] == {"command": "y"}
    assert parsed["mcp_servers"]["assista-odoo"]["command"] == "/usr/bin/python3"
    assert merged.count("[mcp_servers.assista-odoo]") == 1


def test_codex_write_replaces_our_sub_tables_too(addons: Path, isolated_env: Path, tmp_path: Path) -> None:
    """Codex documents env as a sub-table; merging must not declare ``env`` a second time."""
    from assista_mcp.config import hostconfig

    existing = (
        '[mcp_servers.assista-odoo]\ncommand = "old"\nargs = []\n\n'
        '[mcp_servers.assista-odoo.env]\nFOO = "1"\n\n[mcp_servers.x]\ncommand = "y"\n'
    )
    merged = hostconfig.merge("codex", existing, STDIO_CODEX)
    parsed = tomllib.loads(merged)
    assert parsed["mcp_servers"]["assista-odoo"]["env"] == {}
    assert parsed["mcp_servers"]["x"] == {"command": "y"}


def test_broken_existing_file_is_refused_and_left_untouched(
    addons: Path, isolated_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    target = project / ".mcp.json"
    target.write_text("{not json")
    code = main(
        [
            "mcp-config",
            "--client",
            "claude-code",
            "--write",
            "--project-dir",
            str(project),
            "--addons-path",
            str(addons),
        ]
    )
    assert code == 2
    assert target.read_text() == "{not json"
    assert "not valid JSON" in capsys.readouterr().err


def test_bad_addons_path_is_a_usage_error(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["mcp-config", "--client", "cursor", "--addons-path", str(tmp_path / "missing")])
    assert code == 2
    assert "is not a folder" in capsys.readouterr().err


def test_codex_merge_keeps_comments_and_layout(isolated_env: Path) -> None:
    """tomlkit edits the document: the user's comments and other tables stay as written."""
    from assista_mcp.config import hostconfig

    existing = (
        '# my settings\nmodel = "o3"  # fast\n\n[mcp_servers.x]\ncommand = "y"\n\n'
        '[mcp_servers."assista-odoo"]\ncommand = "old"\n'
    )
    merged = hostconfig.merge("codex", existing, STDIO_CODEX)
    assert merged.startswith('# my settings\nmodel = "o3"  # fast\n\n[mcp_servers.x]\ncommand = "y"\n')
    assert tomllib.loads(merged)["mcp_servers"]["assista-odoo"]["command"] == "/usr/bin/python3"
    with pytest.raises(ConfigError, match="not valid TOML"):
        hostconfig.merge("codex", "[mcp_servers\n", STDIO_CODEX)


REFERENCES = {
    "claude-code": "Bearer ${ASSISTA_AUTH_TOKEN}",
    "cursor": "Bearer ${env:ASSISTA_AUTH_TOKEN}",
    "vscode": "Bearer ${input:assista-odoo-token}",
}


@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode"])
def test_http_entries_name_the_servers_bearer_token_through_the_host(
    client: str, addons: Path, isolated_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["mcp-config", "--client", client, "--transport", "http"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    entry = document["mcpServers" if client != "vscode" else "servers"]["assista-odoo"]
    assert ("type" in entry) == (client != "cursor")
    token_file = isolated_env / "http-auth-token"  # generated now, used by serve later
    assert entry["headers"]["Authorization"] == REFERENCES[client]
    assert token_file.read_text().strip() not in out + err
    assert str(token_file) in err
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600


def test_codex_http_entry_and_claude_desktop_refusal(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["mcp-config", "--client", "codex", "--transport", "http", "--url", "http://127.0.0.1:9/mcp"])
        == 0
    )
    entry = tomllib.loads(capsys.readouterr().out)["mcp_servers"]["assista-odoo"]
    assert entry["url"] == "http://127.0.0.1:9/mcp"
    assert entry["http_headers"]["Authorization"].startswith("Bearer ")
    assert main(["mcp-config", "--client", "claude-desktop", "--transport", "http"]) == 2
    assert "stdio" in capsys.readouterr().err


def test_token_file_readable_by_others_is_refused(
    isolated_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = tmp_path / "token"
    shared.write_text("t" * 40)
    shared.chmod(0o644)
    argv = ["mcp-config", "--client", "cursor", "--transport", "http", "--auth-token-file", str(shared)]
    assert main(argv) == 2
    assert "chmod 600" in capsys.readouterr().err


def test_the_written_config_carries_every_setting_the_server_needs(
    addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A host starts the server from an unknown folder: flags, settings without a flag, and the PG*
    # variables all go into the entry; the password never does.
    monkeypatch.setenv("ASSISTA_DB_PREFIX", "team_")
    monkeypatch.setenv("PGHOST", "db.internal")
    monkeypatch.setenv("PGPASSWORD", "hunter2-not-written")
    argv = ["mcp-config", "--client", "claude-code", "--addons-path", str(addons), "--odoo-series", "17.0"]
    argv += ["--odoo-python", "/opt/venv/bin/python", "--db-port", "5433", "--odoo-timeout", "900"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    entry = json.loads(captured.out)["mcpServers"]["assista-odoo"]
    args = entry["args"]
    for flag, value in (
        ("--odoo-series", "17.0"),
        ("--odoo-python", "/opt/venv/bin/python"),
        ("--db-port", "5433"),
        ("--odoo-timeout", "900.0"),
    ):
        assert args[args.index(flag) + 1] == value
    env = entry["env"]
    assert env["ASSISTA_DB_PREFIX"] == "team_" and env["PGHOST"] == "db.internal"
    assert env["ASSISTA_HOME"] == str(isolated_env)  # not a default here, so carried
    assert "PGPASSWORD" not in env
    assert "hunter2" not in captured.out and "~/.pgpass" in captured.err
    assert ".mcp.json (or run again with --write" in captured.err
    serve_args = build_parser().parse_args(args[2:])  # every flag written is one serve accepts
    assert serve_args.odoo_python == "/opt/venv/bin/python"


def test_vscode_write_accepts_jsonc_and_keeps_its_comments(
    addons: Path, isolated_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    target = project / ".vscode" / "mcp.json"
    target.parent.mkdir(parents=True)
    target.write_text(
        '{\n  // team servers, keep this note\n  "servers": {\n    "other": {"command": "x"}, /* theirs */\n'
        '    "assista-odoo": {"command": "stale"},\n  },\n  "inputs": [],\n}\n',
        encoding="utf-8",
    )
    argv = ["mcp-config", "--client", "vscode", "--addons-path", str(addons), "--write"]
    assert main([*argv, "--project-dir", str(project)]) == 0
    text = target.read_text(encoding="utf-8")
    assert "// team servers, keep this note" in text and "/* theirs */" in text
    from assista_mcp.config import jsonc

    servers = jsonc.loads(text)["servers"]
    assert servers["other"] == {"command": "x"}
    assert servers["assista-odoo"]["args"][:3] == ["-m", "assista_mcp", "serve"]

"""The host configurations the README shows are what ``mcp-config`` prints and writes.

Each JSON/TOML snippet of "Plug the server into an MCP host" is read from README.md, its
placeholders (``/home/you/...``) replaced by this machine's interpreter and addons path, and
compared, parsed, with what ``assista-odoo mcp-config --client X`` prints for a newcomer (no
ASSISTA_* or PG* settings); the README's ``--write`` command is run as written, and the files
the README names are the ones mcp-config says the snippet belongs in.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from assista_mcp.cli import main

REPO = Path(__file__).resolve().parent.parent
SECTION = (REPO / "README.md").read_text(encoding="utf-8").split("## Plug the server into an MCP host", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]
README_PYTHON = "/home/you/assista-odoo/.venv/bin/python"
README_ADDONS = "/home/you/odoo/custom-addons"
# Which client prints each snippet, by the words that introduce it.
INTRODUCED_BY = {"Claude Desktop": ("claude-desktop", "cursor"), "VS Code": ("vscode",), "Codex": ("codex",)}
# The file each host reads, as the README names it (relative to the home or the project folder).
README_FILES = {
    "claude-desktop": "~/.config/Claude/claude_desktop_config.json",
    "claude-code": ".mcp.json",
    "cursor": ".cursor/mcp.json",
    "vscode": ".vscode/mcp.json",
    "codex": "~/.codex/config.toml",
}


def _snippets() -> dict[str, tuple[str, str]]:
    """client -> (language, snippet text) for each host configuration shown in the section."""
    found: dict[str, tuple[str, str]] = {}
    after_last_block = 0
    for match in re.finditer(r"```(\w*)\n(.*?)```", SECTION, re.DOTALL):
        lead_in = SECTION[after_last_block : match.start()]
        after_last_block = match.end()
        if match.group(1) not in ("json", "toml"):
            continue
        for words, clients in INTRODUCED_BY.items():
            if words in lead_in:
                found.update((client, (match.group(1), match.group(2))) for client in clients)
    return found


def _parse(language: str, text: str) -> Any:
    return json.loads(text) if language == "json" else tomllib.loads(text)


@pytest.fixture
def newcomer(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of their own (the default data folder under it) and no ASSISTA_*/PG* settings."""
    home = tmp_path / "you"
    (home / "odoo" / "custom-addons").mkdir(parents=True)
    for key in list(os.environ):
        if key.startswith(("ASSISTA_", "PG", "XDG_")):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(home))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return home


def _as_here(text: str, home: Path) -> str:
    addons = str(home / "odoo" / "custom-addons")
    return text.replace(README_PYTHON, sys.executable).replace(README_ADDONS, addons)


def _printed(client: str, home: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["mcp-config", "--client", client, "--addons-path", str(home / "odoo/custom-addons")]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_the_readme_shows_a_snippet_for_each_file_based_host() -> None:
    assert set(_snippets()) == {"claude-desktop", "cursor", "vscode", "codex"}


@pytest.mark.parametrize("client", ["claude-desktop", "cursor", "vscode", "codex"])
def test_each_readme_snippet_is_what_mcp_config_prints(
    client: str, newcomer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    language, snippet = _snippets()[client]
    printed, said = _printed(client, newcomer, capsys)
    assert _parse(language, printed) == _parse(language, _as_here(snippet, newcomer))
    where = README_FILES[client].replace("~", str(newcomer))
    expected = Path(where) if where.startswith("/") else Path.cwd() / where
    assert f"this belongs in {expected} " in said


def test_claude_code_is_the_desktop_entry_with_a_stdio_type(
    newcomer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # README: "Claude Code (`.mcp.json` in the project): the same with "type": "stdio" in the entry."
    assert '"type": "stdio"' in SECTION.split("Claude Code (`.mcp.json` in the project)", 1)[1][:80]
    desktop = json.loads(_printed("claude-desktop", newcomer, capsys)[0])
    code = json.loads(_printed("claude-code", newcomer, capsys)[0])
    entry = desktop["mcpServers"]["assista-odoo"]
    assert code == {"mcpServers": {"assista-odoo": {"type": "stdio", **entry}}}


def test_the_readme_write_command_writes_that_entry(
    newcomer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = re.findall(r"```bash\n(.*?)```", SECTION, re.DOTALL)
    line = next(c.strip() for c in commands if "mcp-config" in c)
    argv = shlex.split(line.replace("~", str(newcomer)))
    assert argv[0] == ".venv/bin/assista-odoo" and "--write" in argv
    assert main(argv[1:]) == 0
    written = json.loads((Path.cwd() / ".mcp.json").read_text(encoding="utf-8"))
    _language, snippet = _snippets()["claude-desktop"]
    entry = json.loads(_as_here(snippet, newcomer))["mcpServers"]["assista-odoo"]
    assert written == {"mcpServers": {"assista-odoo": {"type": "stdio", **entry}}}
    assert ".mcp.json" in capsys.readouterr().out


def _readme_commands() -> list[str]:
    """Every ``assista-odoo ...`` line of the README's bash blocks, comments and shell parts cut."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", readme, re.DOTALL):
        for raw in block.splitlines():
            for part in re.split(r"&&|\|\|", raw.split("  #")[0]):
                words = part.strip()
                if re.match(r"(\.venv/bin/)?assista-odoo ", words):
                    lines.append(words)
    return lines


@pytest.mark.parametrize("line", _readme_commands())
def test_every_readme_command_line_is_accepted_by_the_cli(line: str) -> None:
    from assista_mcp.cli import build_parser

    words = shlex.split(line.replace("~", "/home/you"))[1:]
    # "templates list | clear | prune" shows the choices: each one is checked.
    variants = [[words[0], choice] for choice in words[1::2]] if "|" in words else [words]
    for argv in variants:
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            pytest.fail(f"the CLI refuses the README's `{line}` as {argv} (exit {exc.code})")

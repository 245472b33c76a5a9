"""Another local account gets none of our secrets: every file holding one is created with its final
mode (never readable by others, even for a moment), and no project-level file holds the HTTP token.

The creation mode is read at the first ``fsync`` of each file (right after its bytes are written,
before any later ``chmod`` could narrow it), with a umask that narrows nothing.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.cli import main
from odoo_tools.files import apply_patch
from odoo_tools.workspace import Workspace

Seen = list[tuple[Path, int]]


@pytest.fixture
def fsynced(monkeypatch: pytest.MonkeyPatch) -> Iterator[Seen]:
    """Every regular file fsynced from now on, with its permission bits at that moment."""
    seen: Seen = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            seen.append((Path(os.readlink(f"/proc/self/fd/{fd}")), stat.S_IMODE(info.st_mode)))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    old = os.umask(0)
    try:
        yield seen
    finally:
        os.umask(old)


def _modes_of(seen: Seen, final: Path) -> list[int]:
    """The modes ``final`` and its staged temporary files had when first written."""
    return [
        mode
        for path, mode in seen
        if path.parent == final.parent
        and (path.name == final.name or path.name.startswith(f".{final.name}."))
    ]


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="reads file names from /proc/self/fd")
def test_every_file_holding_a_secret_is_created_private(
    fsynced: Seen, isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_home = tmp_path / "user"
    codex = user_home / ".codex" / "config.toml"
    codex.parent.mkdir(parents=True)
    codex.write_text('model = "o3"\n', encoding="utf-8")
    codex.chmod(0o644)  # an existing user file: its new version is staged 0600 from the start
    monkeypatch.setenv("HOME", str(user_home))
    assert main(["mcp-config", "--client", "codex", "--transport", "http", "--write"]) == 0
    project = tmp_path / "project"
    project.mkdir()
    (project / "assista-odoo.toml").write_text('mode = "ask"\n', encoding="utf-8")
    assert main(["trust", str(project / "assista-odoo.toml")]) == 0
    root = tmp_path / "addons"
    root.mkdir()
    (root / "a.py").write_text("a = 1\n", encoding="utf-8")
    apply_patch(
        Workspace([root], private_dir=isolated_env), "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
    )

    secrets = {
        "the HTTP token": isolated_env / "http-auth-token",
        "a user-level host file holding the token": codex,
        "the trust list": isolated_env / "trusted-project-files.json",
    }
    for what, path in secrets.items():
        modes = _modes_of(fsynced, path)
        assert modes, f"{what} ({path}) was never written"
        assert all(mode & 0o077 == 0 for mode in modes), f"{what} was created {[oct(m) for m in modes]}"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, what
    store = SessionStore.in_home(isolated_env)  # conversations: the user's alone
    store.create(model="m", mode="ask")
    store.close()
    for name in ("sessions.sqlite3", "sessions.sqlite3-wal"):
        if (isolated_env / name).exists():
            assert stat.S_IMODE((isolated_env / name).stat().st_mode) & 0o077 == 0, name
    records = [mode for path, mode in fsynced if path.parent == isolated_env / "journals"]
    assert records and all(mode & 0o077 == 0 for mode in records), "the journal records"
    assert stat.S_IMODE((isolated_env / "journals").stat().st_mode) == 0o700


TOKEN_REFERENCES = {
    "claude-code": (".mcp.json", "mcpServers", "Bearer ${ASSISTA_AUTH_TOKEN}"),
    "cursor": (".cursor/mcp.json", "mcpServers", "Bearer ${env:ASSISTA_AUTH_TOKEN}"),
    "vscode": (".vscode/mcp.json", "servers", "Bearer ${input:assista-odoo-token}"),
}


@pytest.mark.parametrize("client", sorted(TOKEN_REFERENCES))
def test_mcp_config_write_keeps_the_token_out_of_project_files(
    client: str, isolated_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    name, key, reference = TOKEN_REFERENCES[client]
    argv = ["mcp-config", "--client", client, "--transport", "http", "--write", "--project-dir", str(project)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    token = (isolated_env / "http-auth-token").read_text(encoding="utf-8").strip()
    written = (project / name).read_text(encoding="utf-8")
    assert token not in written and token not in out + err
    document = json.loads(written)
    assert document[key]["assista-odoo"]["headers"]["Authorization"] == reference
    assert str(isolated_env / "http-auth-token") in err  # where the host gets it from, said once
    if client == "vscode":
        [asked] = document["inputs"]
        assert asked["id"] == "assista-odoo-token" and asked["password"] is True
        assert main(argv) == 0  # again: the input is not added twice
        assert len(json.loads((project / name).read_text(encoding="utf-8"))["inputs"]) == 1


def test_vscode_token_input_is_added_to_a_commented_file_keeping_its_comments(
    isolated_env: Path, tmp_path: Path
) -> None:
    target = tmp_path / "project" / ".vscode" / "mcp.json"
    target.parent.mkdir(parents=True)
    target.write_text(
        '{\n  // ours\n  "servers": {"other": {"command": "x"}},\n'
        '  "inputs": [{"type": "promptString", "id": "other-key"}],\n}\n',
        encoding="utf-8",
    )
    argv = ["mcp-config", "--client", "vscode", "--transport", "http", "--write"]
    assert main([*argv, "--project-dir", str(tmp_path / "project")]) == 0
    from assista_mcp.config import jsonc

    text = target.read_text(encoding="utf-8")
    assert "// ours" in text
    assert [i["id"] for i in jsonc.loads(text)["inputs"]] == ["other-key", "assista-odoo-token"]

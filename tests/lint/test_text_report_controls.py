"""check's text report on a repository whose names carry terminal control characters: a module
folder, a file and a manifest version written with ESC sequences (OSC 52 writes the terminal's
clipboard), BEL, CR and newlines (a forged report line). Each is shown escaped, one line per line."""

from __future__ import annotations

from pathlib import Path

from tests.lint.conftest import run_cli

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
FORGED = "\nok: 1 module(s), 0 error(s)\r"


def test_control_characters_in_names_reach_no_terminal_raw(tmp_path: Path) -> None:
    module = tmp_path / "addons" / f"evil{OSC52}"
    (module / "views").mkdir(parents=True)
    view = f"views/v{FORGED}{OSC52}.xml"
    manifest = {"name": "Evil", "version": f"17.0.1.0.0{OSC52}{FORGED}", "depends": ["base"], "data": [view]}
    (module / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (module / "__init__.py").write_text("", encoding="utf-8")
    (module / view).write_text("<odoo><record id='x' model='ir.ui.view'>\n", encoding="utf-8")  # broken

    done = run_cli(["check", "addons", "--checks", "static"], cwd=tmp_path, cache=tmp_path / "cache")
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert not any(char in out for char in "\x1b\x07\r"), out
    assert "evil\\x1b]52;c;cm0gLXJmIH4=\\x07" in out  # the module's line, escaped
    assert "addons/evil\\x1b]52;c;cm0gLXJmIH4=\\x07/views/v\\nok" in out  # the broken file's finding
    assert not any(line.startswith("ok:") for line in out.splitlines())  # no forged line
    assert out.splitlines()[-1].startswith("FAILED: 1 module(s)")

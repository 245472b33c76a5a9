"""Every file migrate reads of an Odoo source goes through the one capped, non-blocking reader
(issue 35, round 3): a pipe at each path a reading opens (the registry, the test case, safe_eval,
the base models, a core module's Python, data and security files) never blocks the run, and a
768 MiB file (sparse) in their place is judged by its size, never loaded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from odoo_tools.storage import read_capped

from .hostile_sources import CORE_FORM, extending_module, migrate_cli, odoo_source

READ_FILES = (
    "odoo/modules/registry.py",
    "odoo/orm/registry.py",
    "odoo/tests/common.py",
    "odoo/tools/safe_eval.py",
    "odoo/models.py",
    "odoo/orm/models.py",
    "odoo/orm/models_transient.py",
    "addons/base_app/models/partner.py",
    "addons/base_app/data/records.csv",
    "addons/base_app/security/groups.xml",
)


@pytest.mark.parametrize("kind", ["pipe", "huge"])
def test_migrate_between_two_hostile_sources_never_blocks(tmp_path: Path, kind: str) -> None:
    old_form = CORE_FORM.replace('<field name="ref"/>', '<field name="ref"/><field name="gone"/>')
    sources = [odoo_source(tmp_path / "odoo17", 17, old_form), odoo_source(tmp_path / "odoo18", 18)]
    for source in sources:
        manifest = source / "addons" / "base_app" / "__manifest__.py"
        manifest.write_text(repr({"name": "base_app", "data": ["views/views.xml", "security/groups.xml"]}))
        for rel in READ_FILES:
            path = source / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if kind == "pipe":
                os.mkfifo(path)  # a reader opening it blocks until a writer comes: none will
            else:
                path.write_text("# a core file\n")
                os.truncate(path, 768 << 20)
    module = extending_module(tmp_path / "addons", '<xpath expr="//field[@name=\'gone\']" position="after"/>')
    args = [str(module), "--to", "18.0", "--no-diff", "--from-odoo-path", str(sources[0])]
    result = migrate_cli([*args, "--odoo-path", str(sources[1])], tmp_path, 90)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stderr
    assert "mine/views/v.xml:5" in result.stdout, result.stdout  # both core views were read


def test_the_capped_reader_refuses_a_pipe_a_link_when_asked_and_a_file_over_the_cap(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OSError, match="not a regular file"):
        read_capped(tmp_path / "pipe")
    (tmp_path / "big").write_bytes(b"x" * 11)
    assert read_capped(tmp_path / "big", 10) is None and read_capped(tmp_path / "big", 11) == b"x" * 11
    (tmp_path / "link").symlink_to(tmp_path / "big")
    assert read_capped(tmp_path / "link") == b"x" * 11
    with pytest.raises(OSError):
        read_capped(tmp_path / "link", follow_links=False)

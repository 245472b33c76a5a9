"""An Odoo source a repository can reach is read like a module's files (issue 35): a view file
over the source cap (768 MiB, sparse) is not read, and a pipe named like a view file never
blocks the migration."""

from __future__ import annotations

import os
from pathlib import Path

from .hostile_sources import extending_module, migrate_cli, odoo_source


def test_migrate_reads_no_core_file_over_the_cap_and_never_opens_a_pipe(tmp_path: Path) -> None:
    source = odoo_source(tmp_path / "odoo18", 18)
    views = source / "addons" / "base_app" / "views"
    big = views / "big.xml"
    big.write_text('<odoo><record id="big" model="ir.ui.view"><field name="arch" type="xml"><form/>')
    os.truncate(big, 768 << 20)
    os.mkfifo(views / "pipe.xml")  # a reader opening it blocks until a writer comes: none will
    module = extending_module(tmp_path / "addons", '<xpath expr="//field[@name=\'gone\']" position="after"/>')
    result = migrate_cli([str(module), "--to", "18.0", "--odoo-path", str(source), "--no-diff"], tmp_path, 60)
    assert "Traceback" not in result.stderr, result.stderr
    # The core view was still read from the regular file: the spec's anchor is reported gone.
    assert "mine/views/v.xml:5" in result.stdout and "gone-view-anchor" in result.stdout, result.stdout

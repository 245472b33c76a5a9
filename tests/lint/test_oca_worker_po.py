"""Our OCA hooks worker asks the PO checker for its per-entry checks once per file instead of once
per entry (``_oca_worker._entry_checks_once``): its findings on PO files are the hooks' own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from odoo_tools.lint._oca_worker import __file__ as WORKER

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
# Each file: an entry without its "#. module:" comment (a per-entry check), a duplicated
# message, a python-format entry whose translation drops the placeholder.
ENTRIES = """#. module: shop
#: model:ir.model.fields,field_description:shop.field_shop_order__name
msgid "Name"
msgstr "{name}"

#: code:addons/shop/models/order.py:0
msgid "No module comment"
msgstr "{none}"

#. module: shop
#: code:addons/shop/models/order.py:0
msgid "Name"
msgstr "{name} bis"

#. module: shop
#: code:addons/shop/models/order.py:0
#, python-format
msgid "Order %s"
msgstr "{order}"
"""
HOOKS = """
import json, sys
from oca_pre_commit_hooks import cli_po
errors = cli_po.main(["--no-exit", "--no-verbose", *sys.argv[1:]]) or []
found = [[e.position.filepath.rsplit("/", 1)[-1], e.position.line or 0, e.code] for e in errors]
print(json.dumps(sorted(found)))
"""


def _module(tmp_path: Path) -> Path:
    module = tmp_path / "shop"
    (module / "i18n").mkdir(parents=True)
    (module / "__init__.py").write_text("", encoding="utf-8")
    manifest = {"name": "Shop", "version": "18.0.1.0.0", "license": "LGPL-3", "depends": ["base"]}
    (module / "__manifest__.py").write_text(repr(manifest) + "\n", encoding="utf-8")
    for lang, words in (("fr", ("Nom", "Sans", "Commande")), ("de", ("Name", "Ohne", "Auftrag"))):
        text = ENTRIES.format(name=words[0], none=words[1], order=words[2])
        (module / "i18n" / f"{lang}.po").write_text(HEADER + text, encoding="utf-8")
    return module


def test_the_workers_po_findings_are_the_hooks_own(tmp_path: Path) -> None:
    module = _module(tmp_path)
    run = subprocess.run(
        [sys.executable, "-P", WORKER, str(module)],  # by default weblate-component-too-long is off
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    records = [json.loads(line) for line in run.stdout.splitlines()]
    ours = sorted(
        [r["path"].rsplit("/", 1)[-1], r["line"] or 0, r["code"]]
        for r in records
        if r["path"].endswith(".po")
    )
    files = sorted(str(p) for p in (module / "i18n").glob("*.po"))
    hooks = subprocess.run(
        [sys.executable, "-c", HOOKS, "--disable=weblate-component-too-long", *files],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert ours == json.loads(hooks.stdout.splitlines()[-1])
    codes = {code for _, _, code in ours}
    # A per-entry check on both files (the checker changes between them), and the others.
    assert {"po-requires-module", "po-duplicate-message-definition"} <= codes
    assert {name for name, _, code in ours if code == "po-requires-module"} == {"fr.po", "de.po"}

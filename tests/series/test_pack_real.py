"""Opt-in: the bundled pack of a real Odoo's series agrees with that Odoo's live registry.

    ASSISTA_TEST_ODOO_BIN=/work/labs/odoo18/src/odoo-bin          # required (see /work/labs/README.txt)
    ASSISTA_TEST_ODOO_PYTHON=/work/labs/odoo18/venv/bin/python    # required: Odoo's interpreter
    ASSISTA_TEST_ODOO_CONF=/work/labs/odoo18/odoo.conf            # optional (else the addons beside
                                                                  # odoo-bin and the PG* variables)
    ASSISTA_TEST_PACK_DB=pack_18                                  # optional: a database with everything
                                                                  # installed, compared as is (read only)

Without ``ASSISTA_TEST_PACK_DB`` a fresh database gets ``mail`` installed (no demo) and is dropped after.
A probe (tests/series/pack_real_probe.py) reads the live registry its own way: the ir_model,
ir_model_fields, ir_model_data and ir_ui_view rows and the registry classes. What a module sees
through the pack (its dependency closure) must hold live: every live model, field (type, comodel),
method (and its signature when every module the pack names for it is installed), external ID and
view (model, type, mode, parent, the tags of its own arch) is in the pack, the same.
"""

from __future__ import annotations

import json
import lzma
import os
import re
import secrets
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg2
import pytest

from odoo_tools.series.pack_maker import PACKS

ODOO_BIN = os.environ.get("ASSISTA_TEST_ODOO_BIN", "")
ODOO_PYTHON = os.environ.get("ASSISTA_TEST_ODOO_PYTHON", "")
PROBE = Path(__file__).resolve().parent / "pack_real_probe.py"
SEED, SAMPLE = 20261128, 60
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")  # a default's repr names its address: not a fact

pytestmark = [
    pytest.mark.odoo,
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(
        not (ODOO_BIN and ODOO_PYTHON),
        reason="set ASSISTA_TEST_ODOO_BIN and ASSISTA_TEST_ODOO_PYTHON to run against a real Odoo",
    ),
]


def _config(tmp: Path) -> Path:
    given = os.environ.get("ASSISTA_TEST_ODOO_CONF")
    if given:
        return Path(given)
    root = Path(ODOO_BIN).resolve().parent
    paths = [p for p in (root / "odoo" / "addons", root / "addons") if p.is_dir()]
    conf = tmp / "odoo.conf"
    lines = ["[options]", f"addons_path = {','.join(map(str, paths))}", f"data_dir = {tmp / 'data'}"]
    for key, var in (
        ("db_host", "PGHOST"),
        ("db_port", "PGPORT"),
        ("db_user", "PGUSER"),
        ("db_password", "PGPASSWORD"),
    ):
        if os.environ.get(var):
            lines.append(f"{key} = {os.environ[var]}")
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return conf


def _drop(database: str) -> None:
    conn = psycopg2.connect(dbname="postgres")
    conn.autocommit = True
    with conn.cursor() as cr:
        cr.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    conn.close()


@pytest.fixture(scope="module")
def live() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        conf = _config(Path(tmp))
        database = os.environ.get("ASSISTA_TEST_PACK_DB", "")
        fresh = not database
        if fresh:
            database = f"assista_packreal_{secrets.token_hex(3)}"
            helptext = subprocess.run(
                [ODOO_PYTHON, ODOO_BIN, "--help"], capture_output=True, text=True
            ).stdout
            demo = [] if "--with-demo" in helptext else ["--without-demo=all"]
            command = [
                ODOO_PYTHON,
                ODOO_BIN,
                "-c",
                str(conf),
                "-d",
                database,
                "-i",
                "mail",
                "--stop-after-init",
            ]
            subprocess.run([*command, *demo], check=True, capture_output=True)
        try:
            odoo_dir = str(Path(ODOO_BIN).resolve().parent)
            command = [ODOO_PYTHON, str(PROBE), odoo_dir, str(conf), database, str(SEED), str(SAMPLE)]
            done = subprocess.run(command, check=True, capture_output=True, text=True)
            yield json.loads(done.stdout)
        finally:
            if fresh:
                _drop(database)


@pytest.fixture(scope="module")
def pack(live: dict[str, Any]) -> dict[str, Any]:
    path = PACKS / f"{live['series']}.json.xz"
    assert path.is_file(), f"no pack bundled for {live['series']}"
    return json.loads(lzma.decompress(path.read_bytes()))  # type: ignore[no-any-return]


def test_every_live_model_and_module_is_in_the_pack(live: dict[str, Any], pack: dict[str, Any]) -> None:
    assert [m for m in live["installed"] if m not in pack["modules"]] == []
    assert [m for m in live["models"] if m not in pack["models"]] == []


def test_fields_agree(live: dict[str, Any], pack: dict[str, Any]) -> None:
    wrong = []
    for model, facts in live["sample"].items():
        fields = pack["models"][model]["fields"]
        for name, (ttype, relation) in facts["fields"].items():
            mine = fields.get(name)
            if mine is None or mine["type"] != ttype or mine.get("comodel", "") != relation:
                wrong.append((model, name, ttype, relation, mine))
        wrong += [
            (model, name, "class field", "", None) for name in facts["class_fields"] if name not in fields
        ]
    assert wrong == []


def _from_a_mixin_not_added(pack: dict[str, Any], model: str, name: str, installed: set[str]) -> bool:
    """Whether ``name`` may come to ``model`` from a parent that a module not installed here adds
    (res.company gets mail.thread from account): the pack names the mixin's module (mail) for the
    method, so with mail alone live has the framework's signature where the pack has mail's."""
    adders = pack["models"][model].get("inherit_modules", {})
    return any(
        adder not in installed and name in pack["models"].get(parent, {}).get("methods", {})
        for parent, adder in adders.items()
    )


def test_methods_agree(live: dict[str, Any], pack: dict[str, Any]) -> None:
    installed = set(live["installed"])
    wrong = []
    for model, facts in live["sample"].items():
        framework = {n: {"params": p, "modules": []} for n, p in pack.get("framework_methods", {}).items()}
        methods = {**framework, **pack["models"][model]["methods"]}
        for name, params in facts["methods"].items():
            mine = methods.get(name)
            if mine is None:
                wrong.append((model, name, params, None))
            elif (
                set(mine["modules"]) <= installed
                and not _from_a_mixin_not_added(pack, model, name, installed)
                and mine["params"] != ADDRESS.sub(">", params)
            ):
                wrong.append((model, name, params, mine))
    assert wrong == []


def test_external_ids_agree(live: dict[str, Any], pack: dict[str, Any]) -> None:
    wrong = [
        (module, name, model, pack["xmlids"].get(module, {}).get(name))
        for module, name, model in live["xmlids"]
        if module in pack["modules"] and pack["xmlids"].get(module, {}).get(name) != model
    ]
    assert wrong == []


def _tags(skeleton: Any) -> list[str]:
    if not skeleton:
        return []
    tag, _attrs, children = skeleton
    return [tag, *(t for child in children for t in _tags(child))]


# Views whose arch Odoo rewrites from what is installed: res.users._update_user_groups_view (17.0,
# 18.0) writes one field per group of the database into base.user_groups_view, so its arch in a
# database with mail alone is not the full install's.
REWRITTEN_VIEWS = frozenset({"base.user_groups_view"})


def test_views_agree(live: dict[str, Any], pack: dict[str, Any]) -> None:
    wrong: list[tuple[Any, ...]] = []
    for xml_id, view in live["views"].items():
        if xml_id.partition(".")[0] not in pack["modules"]:
            continue
        mine = pack["views"].get(xml_id)
        if mine is None:
            wrong.append((xml_id, "missing"))
            continue
        for key in ("model", "type", "mode", "inherit_id"):
            if mine[key] != view[key]:
                wrong.append((xml_id, key, view[key], mine[key]))
        if _tags(mine["arch"]) != view["tags"] and xml_id not in REWRITTEN_VIEWS:
            wrong.append((xml_id, "arch"))
    assert wrong == []

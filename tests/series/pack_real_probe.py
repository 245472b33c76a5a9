"""Run BY PATH under a real Odoo's interpreter by tests/series/test_pack_real.py: what a live registry
says, read its own way (ir.model / ir.model.fields / ir.model.data / ir.ui.view rows and the registry
classes), independently of the pack dumper.

    ODOO_PYTHON pack_real_probe.py ODOO_DIR ODOO_CONF DB SEED SAMPLE_SIZE
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
import sys
from typing import Any

FIXED = (
    "ir.cron",
    "ir.rule",
    "res.partner",
    "res.users",
    "ir.ui.view",
    "mail.compose.message",
    "mail.thread",
)


def main() -> int:
    odoo_dir, conf, database, seed, size = sys.argv[1:6]
    sys.path.insert(1, odoo_dir)
    importlib.import_module("odoo")
    importlib.import_module("odoo.tools").config.parse_config(
        ["-c", conf, "-d", database, "--log-level=warn"]
    )
    importlib.import_module("odoo.modules.module").initialize_sys_path()
    registry_module: Any
    try:
        registry_module = importlib.import_module("odoo.orm.registry")
    except ImportError:
        registry_module = importlib.import_module("odoo.modules.registry")
    registry = registry_module.Registry(database)
    api = importlib.import_module("odoo.api")
    with registry.cursor() as cr:
        env = api.Environment(cr, 1, {})
        cr.execute("SELECT name FROM ir_module_module WHERE state = 'installed'")
        installed = sorted(row[0] for row in cr.fetchall())
        cr.execute("SELECT model FROM ir_model")
        models = sorted(row[0] for row in cr.fetchall())
        chosen = [m for m in FIXED if m in registry] + random.Random(int(seed)).sample(models, int(size))
        sample = {name: _model(env, cr, name) for name in dict.fromkeys(chosen) if name in registry}
        cr.execute("SELECT module, name, model FROM ir_model_data")
        xmlids = sorted(cr.fetchall())
        out = {
            "series": str(importlib.import_module("odoo.release").serie),
            "installed": installed,
            "models": models,
            "sample": sample,
            "xmlids": xmlids,
            "views": _views(env, cr),
        }
    sys.stdout.write(json.dumps(out))
    return 0


def _model(env: Any, cr: Any, name: str) -> dict[str, Any]:
    cr.execute("SELECT name, ttype, coalesce(relation, '') FROM ir_model_fields WHERE model = %s", [name])
    rows = {fname: [ttype, relation] for fname, ttype, relation in cr.fetchall()}
    cls = type(env[name])
    methods: dict[str, str] = {}
    for attr in dir(cls):
        if attr.startswith("__"):
            continue
        value = inspect.getattr_static(cls, attr)
        function = value.__func__ if isinstance(value, classmethod | staticmethod) else value
        if inspect.isfunction(function):
            methods[attr] = str(inspect.signature(function))
    return {"fields": rows, "class_fields": sorted(cls._fields), "methods": methods}


def _views(env: Any, cr: Any) -> dict[str, Any]:
    cr.execute(
        "SELECT res_id, module || '.' || name FROM ir_model_data WHERE model = 'ir.ui.view' ORDER BY id"
    )
    xml_ids: dict[int, str] = {}
    for res_id, xml_id in cr.fetchall():
        xml_ids.setdefault(res_id, xml_id)
    etree = importlib.import_module("lxml.etree")
    found: dict[str, Any] = {}
    for view in env["ir.ui.view"].with_context(active_test=False).browse(list(xml_ids)).exists():
        arch = etree.fromstring(view.arch_db.encode()) if view.arch_db else None
        data = {
            "model": view.model or None,
            "type": view.type,
            "mode": view.mode,
            "inherit_id": xml_ids.get(view.inherit_id.id) if view.inherit_id else None,
            "tags": [e.tag for e in arch.iter() if isinstance(e.tag, str)] if arch is not None else [],
        }
        found[xml_ids[view.id]] = data
    return found


if __name__ == "__main__":
    raise SystemExit(main())

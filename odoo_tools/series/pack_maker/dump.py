"""The Odoo side of the pack maker: run BY PATH with a real Odoo's own interpreter.

    ODOO_PYTHON dump.py modules --odoo-dir DIR -c ODOO_CONF            # the modules on the addons path
    ODOO_PYTHON dump.py pack --odoo-dir DIR -c ODOO_CONF -d DB --out F  # the pack facts of DB's registry
    ODOO_PYTHON dump.py pack --odoo-dir DIR -c ODOO_CONF -d DB --load-all M1,M2,... --out F

``DIR`` is the folder holding the ``odoo`` package (the one of ``odoo-bin``). ``pack`` writes the
pack's JSON (not compressed; ``scripts/series_pack.py`` adds ``made_by`` and writes the ``.json.xz``).
With ``--load-all`` the registry is built in memory from those modules (and their depends) on top of
DB's installed ones, without installing anything: models, fields and methods only (no external IDs,
no views: their data was never loaded). That quick pack stands in until a full install is dumped.

Stdlib only (it runs inside a user's Odoo too): it imports Odoo and its siblings, nothing of ours.
Nothing read here is Odoo's text: no method bodies, no labels or help, no view expression values.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING or __package__:
    from odoo_tools.series.pack_maker import pack_models, pack_python_names, pack_views
else:  # run by path: the siblings are top-level modules of this folder (sys.path[0])
    import pack_models
    import pack_python_names
    import pack_views

FORMAT = 1
SUPERUSER_ID = 1  # Odoo's, the same in every series


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dump.py")
    parser.add_argument("what", choices=("modules", "pack"))
    parser.add_argument("--odoo-dir", required=True, help="the folder holding the odoo package")
    parser.add_argument("-c", "--config", required=True, help="the odoo.conf to use")
    parser.add_argument("-d", "--database", default="")
    parser.add_argument("--load-all", default="", help="comma-separated modules to load without install")
    parser.add_argument("--out", default="-")
    args = parser.parse_args(argv)
    odoo = _start_odoo(args.odoo_dir, args.config, args.database)
    if args.what == "modules":
        data: dict[str, Any] = {"modules": _available_modules(odoo), "version": _version(odoo)}
    else:
        load_all = [m for m in args.load_all.split(",") if m]
        data = _pack(odoo, args.database, load_all)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    if args.out == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    return 0


def _start_odoo(odoo_dir: str, config: str, database: str) -> Any:
    sys.path.insert(1, odoo_dir)
    odoo = importlib.import_module("odoo")
    args = ["-c", config, "--log-level=warn"] + (["-d", database] if database else [])
    importlib.import_module("odoo.tools").config.parse_config(args)  # 19.0 imports odoo.tools lazily
    importlib.import_module("odoo.modules.module").initialize_sys_path()
    logging.getLogger("odoo").setLevel(logging.WARNING)
    return odoo


def _version(odoo: Any) -> str:
    release = importlib.import_module("odoo.release")
    return str(release.version)


def _manifest(name: str) -> Any:
    module = importlib.import_module("odoo.modules.module")
    return module.get_manifest(name)


def _available_modules(odoo: Any) -> dict[str, dict[str, Any]]:
    """Every module on the addons path: what Odoo's manifest reader says of it, and whether its
    external dependencies are met (Odoo's own check, as at install)."""
    module = importlib.import_module("odoo.modules.module")
    found: dict[str, dict[str, Any]] = {}
    for name in sorted(module.get_modules()):
        manifest = _manifest(name)
        if not manifest:
            continue
        missing = ""
        try:
            if hasattr(manifest, "check_manifest_dependencies"):  # 19.0: a Manifest object
                manifest.check_manifest_dependencies()
            else:
                module.check_manifest_dependencies(manifest)
        except Exception as error:  # Odoo raises its own kinds (MissingDependency, Exception)
            missing = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        auto = manifest.get("auto_install")
        found[name] = {
            "depends": list(manifest.get("depends") or []),
            "auto_install": bool(auto),
            "installable": bool(manifest.get("installable", True)),
            "license": str(manifest.get("license") or "LGPL-3"),
            "missing_dependency": missing,
        }
    return found


def _pack(odoo: Any, database: str, load_all: list[str]) -> dict[str, Any]:
    registry, order, failed = _registry(odoo, database, load_all)
    with registry.cursor() as cr:
        env = importlib.import_module("odoo.api").Environment(cr, SUPERUSER_ID, {})
        installed = not load_all
        field_modules = pack_models.field_modules_from_data(env) if installed else None
        source = odoo.__path__[0].rpartition("/")[0]
        models = pack_models.models(env, order, field_modules)
        names, open_modules = pack_python_names.python_names(Path(source))
        data: dict[str, Any] = {
            "format": FORMAT,
            "series": str(importlib.import_module("odoo.release").serie),
            "made_by": {
                "odoo_version": _version(odoo),
                "modules": len(order),
                "installed": installed,
                "load_failed": failed,
            },
            "modules": _modules(order),
            "models": models,
            "framework_methods": pack_models.factor_framework_methods(models),
            "python_names": names,
            "python_names_open": open_modules,
        }
        if installed:
            data["xmlids"] = pack_views.xmlids(env)
            data["views"] = pack_views.views(env)
            data["access_models"] = pack_views.access_models(env)
        cr.rollback()
    return data


def _modules(order: list[str]) -> dict[str, dict[str, Any]]:
    modules: dict[str, dict[str, Any]] = {}
    for position, name in enumerate(order):
        manifest = _manifest(name)
        modules[name] = {
            "depends": list(manifest.get("depends") or []),
            "auto_install": bool(manifest.get("auto_install")),
            "order": position,
        }
    return modules


def _registry(odoo: Any, database: str, load_all: list[str]) -> tuple[Any, list[str], dict[str, str]]:
    """The registry of ``database``, its modules in Odoo's load order, and (``load_all`` only) the
    modules whose Python could not be imported, with why (their dependants are left out too)."""
    registry_module = _registry_module()
    if not load_all:
        registry = registry_module.Registry(database)
        with registry.cursor() as cr:
            cr.execute("SELECT name FROM ir_module_module WHERE state = 'installed'")
            installed = [row[0] for row in cr.fetchall()]
            order = [node.name for node in _graph(odoo, cr, installed)]
        return registry, order, {}
    registry = object.__new__(registry_module.Registry)
    registry.init(database)
    registry_module.Registry.registries[database] = registry
    load = importlib.import_module("odoo.modules.module").load_openerp_module
    failed: dict[str, str] = {}
    with registry.cursor() as cr:
        order = []
        for node in _graph(odoo, cr, load_all):
            gone = sorted(d for d in _manifest(node.name).get("depends") or () if d in failed)
            if gone:
                failed[node.name] = f"depends on {', '.join(gone)} (not loaded)"
                continue
            try:
                load(node.name)
            except Exception as error:  # what an install would die of too (an undeclared dependency...)
                failed[node.name] = f"import failed: {type(error).__name__}: {str(error)[:200]}"
                continue
            _load(registry, cr, node)
            order.append(node.name)
        setup = getattr(registry, "setup_models", None) or registry._setup_models__  # 19.0: the latter
        setup(cr)
        cr.rollback()
    return registry, order, failed


def _registry_module() -> Any:
    try:
        return importlib.import_module("odoo.orm.registry")  # 19.0
    except ImportError:
        return importlib.import_module("odoo.modules.registry")


def _graph(odoo: Any, cr: Any, names: list[str]) -> list[Any]:
    """Odoo's own module graph of ``names`` (and their depends), in its load order."""
    try:
        graph_module = importlib.import_module("odoo.modules.module_graph")  # 19.0
    except ImportError:
        graph = importlib.import_module("odoo.modules.graph").Graph()
        graph.add_module(cr, "base")
        graph.add_modules(cr, names)
        return list(graph)
    graph = graph_module.ModuleGraph(cr, mode="update")  # "load" drops modules not installed
    graph.extend(["base", *names])
    return list(graph)


def _load(registry: Any, cr: Any, node: Any) -> None:
    try:
        registry.load(cr, node)
    except TypeError:  # 19.0: load(module)
        registry.load(node)


if __name__ == "__main__":
    raise SystemExit(main())

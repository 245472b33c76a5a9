"""Rebuild a bundled core module list, ``odoo_tools/series/core_modules/<series>.json``, from an Odoo
Community source: what the static checks know of Odoo's core modules when no source is configured.

    python scripts/core_modules.py --odoo-path /path/to/odoo [--output FILE]

Reads, never imports: the series from ``odoo/release.py``, every module of ``odoo/addons`` and
``addons`` (manifests parsed as literals, model classes as syntax trees). Recipe:
- modules: those whose manifest license is LGPL-3 (the default), minus those that depend, directly
  or not, on one that is not; empty ``depends`` read as ``base`` (``base`` itself excepted);
- auto_install: module -> its triggers (``True`` means all its depends, ``["base"]`` for ``base``);
- models: a model belongs to the module whose class sets ``_name`` (a plain ``_name = "x"``, not a
  chained assignment) without inheriting that same name; of several such modules, the one that
  depends on none of the others. Model names starting with ``test`` are left out.
The output is JSON with one value per line, keys sorted, no final newline (the committed files).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from odoo_tools.addons import detect_series  # noqa: E402

LICENSE = "LGPL-3"


def read_manifests(odoo_path: Path) -> dict[str, tuple[Path, dict[str, object]]]:
    """Module name -> (folder, manifest) of every module of the source's addons folders."""
    found: dict[str, tuple[Path, dict[str, object]]] = {}
    for root in (odoo_path / "odoo" / "addons", odoo_path / "addons"):
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir()):
            manifest = folder / "__manifest__.py"
            if manifest.is_file() and folder.name not in found:
                value = ast.literal_eval(manifest.read_text(encoding="utf-8"))
                if isinstance(value, dict):
                    found[folder.name] = (folder, value)
    return found


def _depends(name: str, manifest: dict[str, object]) -> list[str]:
    raw = manifest.get("depends") or []
    depends = [str(d) for d in raw] if isinstance(raw, (list, tuple)) else []
    return depends or ([] if name == "base" else ["base"])


def free_modules(manifests: dict[str, tuple[Path, dict[str, object]]]) -> dict[str, list[str]]:
    """LGPL-3 modules none of whose dependencies (transitively) is of another license."""
    depends = {name: _depends(name, manifest) for name, (_, manifest) in manifests.items()}
    free = {name for name, (_, manifest) in manifests.items() if manifest.get("license", LICENSE) == LICENSE}
    changed = True
    while changed:
        changed = False
        for name in sorted(free):
            if any(dep not in free for dep in depends[name]):
                free.discard(name)
                changed = True
    return {name: depends[name] for name in sorted(free)}


def auto_installs(
    manifests: dict[str, tuple[Path, dict[str, object]]], depends: dict[str, list[str]]
) -> dict[str, list[str]]:
    found = {}
    for name in depends:
        auto = manifests[name][1].get("auto_install", False)
        if auto is True:  # its triggers: its depends, where empty ones read as base (base's too)
            found[name] = depends[name] or ["base"]
        elif isinstance(auto, (list, tuple)) and auto:
            found[name] = [str(a) for a in auto]
    return found


def _defined_models(folder: Path) -> Iterator[str]:
    """``_name`` of the classes of ``folder``'s Python files that do not inherit that same name."""
    for path in sorted(folder.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                name, inherits = _class_names(node)
                if name and name not in inherits:
                    yield name


def _class_names(node: ast.ClassDef) -> tuple[str | None, list[str]]:
    name, inherits = None, []
    for statement in node.body:
        if not isinstance(statement, ast.Assign) or not isinstance(statement.value, (ast.Constant, ast.List)):
            continue
        # ``_name = "x"`` alone: a chained ``_name = _description = "x"`` is not read (as the
        # committed lists were made)
        targets = (
            [t.id for t in statement.targets if isinstance(t, ast.Name)]
            if len(statement.targets) == 1
            else []
        )
        if "_name" in targets and isinstance(statement.value, ast.Constant):
            name = statement.value.value if isinstance(statement.value.value, str) else None
        if "_inherit" in targets:
            values = statement.value.elts if isinstance(statement.value, ast.List) else [statement.value]
            inherits = [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return name, inherits


def _closure(name: str, depends: dict[str, list[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(depends.get(name, []))
    while todo:
        dep = todo.pop()
        if dep not in seen:
            seen.add(dep)
            todo += depends.get(dep, [])
    return seen


def model_owners(
    manifests: dict[str, tuple[Path, dict[str, object]]], depends: dict[str, list[str]]
) -> dict[str, str]:
    definers: dict[str, set[str]] = {}
    for module in depends:
        for model in _defined_models(manifests[module][0]):
            if not model.startswith("test"):
                definers.setdefault(model, set()).add(module)
    owners = {}
    for model, modules in definers.items():
        roots = sorted(m for m in modules if not (_closure(m, depends) & modules))
        owners[model] = roots[0] if roots else sorted(modules)[0]
    return dict(sorted(owners.items()))


def core_list(odoo_path: Path) -> tuple[str, str]:
    """(the series, the list as the committed files spell it)."""
    series = detect_series(odoo_path).series
    if series is None:
        raise SystemExit(f"{odoo_path}: no odoo/release.py with a version_info")
    manifests = read_manifests(odoo_path)
    depends = free_modules(manifests)
    data = {
        "depends": depends,
        "auto_install": auto_installs(manifests, depends),
        "models": model_owners(manifests, depends),
        "series": series,
        "source": f"Odoo {series} Community (LGPL-3 modules), generated from a source snapshot",
    }
    return series, json.dumps(data, indent=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--odoo-path", type=Path, required=True, help="an Odoo Community source tree")
    parser.add_argument("--output", type=Path, help="default: odoo_tools/series/core_modules/<series>.json")
    args = parser.parse_args(argv)
    series, text = core_list(args.odoo_path)
    output = args.output or REPO / "odoo_tools" / "series" / "core_modules" / f"{series}.json"
    output.write_text(text, encoding="utf-8")
    print(f"{output}: {len(json.loads(text)['depends'])} modules, {len(json.loads(text)['models'])} models")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

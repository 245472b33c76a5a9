"""Benchmark the code index: cold build, warm start (cache on disk), no-change refresh, one-file change.

    .venv/bin/python benchmarks/index_project.py [--modules 600] [--workers N]

Uses the Odoo source at $ASSISTA_BENCH_ODOO_PATH when set (its ``addons`` and ``odoo/addons``,
copied to a temporary folder without ``static``/``i18n``, which the index skips anyway, so the
one-file change never touches the real source), else generates a tree of Odoo-like shape
(models, views, access CSV, static assets, i18n) in a temporary folder. Prints seconds, peak
memory (ru_maxrss of this process and of worker processes) and the ratio of each step to its goal.
Goals for ~600 modules on 2 cores: cold <= 30 s, warm <= 1 s, one-file change <= 1 s, peak <= 500 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.addons import odoo_core_roots
from odoo_tools.index import ProjectIndex

GOALS = {"cold": 30.0, "warm start": 1.0, "refresh, no change": 1.0, "one file changed": 1.0}
# Shaped like Odoo 18 community (595 modules: ~11k indexed files, ~1,200 models, ~45k xml ids).
MODELS, FIELDS, METHODS = 3, 12, 4  # per module; plus 12 other Python files and 3 view records per model
FIELD_TYPES = ("Char", "Integer", "Float", "Boolean", "Date", "Text", "Html", "Monetary")


def generate_tree(root: Path, modules: int) -> None:
    """Odoo-like modules: model files, other Python files, view files, access CSV, assets, i18n."""
    for m in range(modules):
        name = f"bench_mod_{m:04d}"
        folder = root / name
        for sub in ("models", "controllers", "tests", "wizard", "views", "security", "static/src/js", "i18n"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        deps = ["base"] + [f"bench_mod_{d:04d}" for d in (m - 1, m // 2) if 0 <= d < m]
        (folder / "__manifest__.py").write_text(
            repr(
                {
                    "name": name,
                    "version": "18.0.1.0.0",
                    "depends": sorted(set(deps)),
                    "license": "LGPL-3",
                    "data": ["security/ir.model.access.csv"] + [f"views/view_{v}.xml" for v in range(MODELS)],
                }
            ),
            encoding="utf-8",
        )
        (folder / "__init__.py").write_text("from . import models\n", encoding="utf-8")
        for i in range(MODELS):
            (folder / "models" / f"model_{i}.py").write_text(_model_file(m, i), encoding="utf-8")
        for sub in ("controllers", "tests", "wizard"):
            for i in range(4):
                (folder / sub / f"{sub}_{i}.py").write_text(_plain_python(m, i), encoding="utf-8")
        for i in range(MODELS):
            (folder / "views" / f"view_{i}.xml").write_text(_view_file(m, i), encoding="utf-8")
        (folder / "data").mkdir(exist_ok=True)
        records = "".join(
            f'  <record id="rec_{r}" model="bench.{m}.0"><field name="f_1">{r}</field></record>\n'
            for r in range(50)
        )
        (folder / "data" / "records.xml").write_text(f"<odoo>\n{records}</odoo>\n", encoding="utf-8")
        rows = ["id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink"]
        rows += [f"access_{m}_{i},a,model_bench_{m}_{i},base.group_user,1,1,1,1" for i in range(MODELS)]
        (folder / "security" / "ir.model.access.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        for i in range(10):
            (folder / "static" / "src" / "js" / f"w{i}.js").write_text("export const x = 1;\n" * 50)
        (folder / "i18n" / "fr.po").write_text('msgid "x"\nmsgstr "y"\n' * 200, encoding="utf-8")


def _model_file(m: int, i: int) -> str:
    lines = ["from odoo import api, fields, models", "", ""]
    lines += [
        f"class Bench{m}_{i}(models.Model):",
        f'    _name = "bench.{m}.{i}"',
        f'    _description = "B {m} {i}"',
    ]
    lines += ['    _inherit = ["mail.thread"]', ""]
    for f in range(FIELDS):
        lines.append(
            f"    f_{f} = fields.{FIELD_TYPES[f % len(FIELD_TYPES)]}"
            f'(string="Field {f}", required={f % 3 == 0})'
        )
    lines.append('    partner_id = fields.Many2one("res.partner", string="Partner")')
    for k in range(METHODS):
        lines += [
            "",
            f'    @api.depends("f_{k}")',
            f"    def _compute_{k}(self):",
            "        for rec in self:",
        ]
        lines += [f"            rec.f_{k + 1} = rec.f_{k}" for _ in range(8)]
    if m > 0:
        lines += ["", "", f"class Ext{m}_{i}(models.Model):", f'    _inherit = "bench.{m - 1}.{i}"', ""]
        lines += [f"    x_{f} = fields.Char()" for f in range(5)]
    return "\n".join(lines) + "\n"


def _plain_python(m: int, i: int) -> str:
    body = [
        f"def helper_{k}(env):\n    return env['bench.{m}.{i}'].search([('f_1', '=', {k})])\n"
        for k in range(25)
    ]
    return "from odoo import http\n\n" + "\n".join(body)


def _view_file(m: int, i: int) -> str:
    fields = "\n".join(f'                <field name="f_{f}" />' for f in range(FIELDS))
    records = []
    for v in range(4):
        inherit = (
            f'\n        <field name="inherit_id" ref="bench_mod_{m - 1:04d}.view_{i}_0" />'
            if m and v == 3
            else ""
        )
        records.append(f"""    <record id="view_{i}_{v}" model="ir.ui.view">
        <field name="name">bench.{m}.{i}.{v}</field>
        <field name="model">bench.{m}.{i}</field>{inherit}
        <field name="arch" type="xml">
            <form><sheet><group>
{fields}
            </group></sheet></form>
        </field>
    </record>""")
    records.append(
        f'    <record id="action_{i}" model="ir.actions.act_window"><field name="name">A</field>'
        f'<field name="res_model">bench.{m}.{i}</field></record>'
    )
    records.append(f'    <menuitem id="menu_{i}" name="M{i}" action="action_{i}" />')
    return '<?xml version="1.0" encoding="utf-8"?>\n<odoo>\n' + "\n".join(records) + "\n</odoo>\n"


def _copy_odoo(source: Path, target: Path) -> list[Path]:
    skip = shutil.ignore_patterns("static", "i18n", "i18n_extra", "__pycache__", "*.pyc")
    copies = []
    for number, root in enumerate(odoo_core_roots(source)):
        copy = target / str(number)
        shutil.copytree(root, copy, ignore=skip)
        copies.append(copy)
    return copies


def _peak_mb() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def _timed(label: str, action: object, results: dict[str, float]) -> None:
    started = time.perf_counter()
    stats = action()  # type: ignore[operator]
    results[label] = time.perf_counter() - started
    print(
        f"{label:<22} {results[label]:7.2f} s  files={stats.files} parsed={len(stats.parsed)}"
        f"  goal <= {GOALS[label]:.0f} s  ratio {results[label] / GOALS[label]:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=600)
    parser.add_argument("--workers", type=int, default=None, help="worker processes for the cold build")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="assista-bench-") as tmp:
        odoo = os.environ.get("ASSISTA_BENCH_ODOO_PATH")
        if odoo:
            started = time.perf_counter()
            roots = _copy_odoo(Path(odoo), Path(tmp) / "odoo")
            print(f"tree: Odoo source {odoo} (copied in {time.perf_counter() - started:.1f} s)")
        else:
            tree = Path(tmp) / "addons"
            started = time.perf_counter()
            generate_tree(tree, args.modules)
            roots = [tree]
            print(f"tree: generated {args.modules} modules in {time.perf_counter() - started:.1f} s ({tree})")
        cache = Path(tmp) / "cache"
        results: dict[str, float] = {}
        index = ProjectIndex(roots, cache_dir=cache, workers=args.workers)
        _timed("cold", index.refresh, results)
        print(
            f"modules={len(index.addons.addons)} models={len(index.tables.model_classes)} "
            f"xml ids={len(index.tables.records)}"
        )
        _timed("warm start", ProjectIndex(roots, cache_dir=cache).refresh, results)
        _timed("refresh, no change", index.refresh, results)
        target = next(p for p in sorted(index._entries or {}) if p.endswith(".py") and "/models/" in p)
        with open(target, "a", encoding="utf-8") as handle:
            handle.write("\n# touched\n")
        _timed("one file changed", index.refresh, results)
        with open(target, "a", encoding="utf-8") as handle:
            handle.write("# touched again\n")
        started = time.perf_counter()
        index.refresh()
        index.find_model(sorted(index.tables.model_classes)[0])
        elapsed = time.perf_counter() - started
        print(f"{'change + find_model':<22} {elapsed:7.2f} s  (tables rebuilt by the first query)")
        own, children = _peak_mb()
        print(
            f"peak memory: this process {own:.0f} MB, largest worker {children:.0f} MB (goal <= 500 MB, "
            f"ratio {max(own, children) / 500:.2f})"
        )
        print(f"model lookup: {_lookup_seconds(index):.3f} s for find_model (includes a refresh)")
    return 0


def _lookup_seconds(index: ProjectIndex) -> float:
    started = time.perf_counter()
    name = sorted(index.tables.model_classes)[len(index.tables.model_classes) // 2]
    index.find_model(name)
    return time.perf_counter() - started


if __name__ == "__main__":
    raise SystemExit(main())

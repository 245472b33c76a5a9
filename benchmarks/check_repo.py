"""Benchmark ``assista-odoo check`` on a realistic tree and print figures and ratios.

    .venv/bin/python benchmarks/check_repo.py [--modules 30] [--source DIR]

Source: real Odoo addons from ``--source`` or ``ASSISTA_BENCH_ODOO_PATH`` (its ``odoo/addons``
or ``addons``), ``--modules`` of them picked evenly by name and copied to a temp dir; without a
source, that many addons are generated. Measured, side by side in one run:
1. cold: a full check with an empty cache;
2. warm: the same again with nothing changed;
3. warm after editing one Python file of one module, then one XML file of it (goal: <= 1 s
   each, with a fresh process, as a pre-commit hook runs it);
4. OCA's pre-commit way on the same files: pylint-odoo with .pylintrc (--exit-zero) and with
   .pylintrc-mandatory (one process each, as the hook is require_serial), then the template's
   Python style linter for the tree's series: ruff from 17.0 (one process, it uses every core),
   flake8 split over the cores before, as pre-commit does (goal: cold / that <= 1.0x); and
   oca-checks-odoo-module for reference.
"""

from __future__ import annotations

import argparse
import os
import pprint
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from odoo_tools.addons import discover_addons
from odoo_tools.lint import DEFAULT_FLAKE8, DEFAULT_PYLINTRC, DEFAULT_PYLINTRC_MANDATORY, DEFAULT_RUFF
from odoo_tools.process import ProcessResult, run_process_sync
from odoo_tools.series import series_of_version

REPO = Path(__file__).resolve().parent.parent
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--modules", type=int, default=30)
    parser.add_argument("--source", default=os.environ.get("ASSISTA_BENCH_ODOO_PATH"))
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per warm figure")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="assista-bench-") as tmp:
        work = Path(tmp)
        addons = work / "addons"
        origin = _copy_real(Path(args.source), addons, args.modules) if args.source else None
        if origin is None:
            _generate(addons, args.modules)
        names = sorted(p.name for p in addons.iterdir() if (p / "__manifest__.py").is_file())
        if not names:  # e.g. a source whose addons sit in addons/ while odoo/addons holds only base
            print(f"check_repo.py: no addon with a __manifest__.py in {origin or addons}", file=sys.stderr)
            return 2
        py_files = sorted(str(p) for p in addons.rglob("*.py"))
        where = origin or "generated"
        print(f"tree: {len(names)} addons, {len(py_files)} Python files ({where}); {CORES} cores")
        _bench(work, addons, names, py_files, args.repeat)
    return 0


def _bench(work: Path, addons: Path, names: list[str], py_files: list[str], repeat: int) -> None:
    env = _env(work / "cache")
    check = [sys.executable, "-m", "assista_mcp", "check", "--addons-path", str(addons), "--format", "json"]
    check += ["--output", str(work / "report.json")]
    cold = _timed("cold check (empty cache)", check, env)
    if not (work / "report.json").is_file():
        raise SystemExit("the check did not write its report: the figures would be meaningless")
    touched = addons / names[len(names) // 2]
    # Each warm figure is the median of --repeat fresh processes (a busy machine shows in the
    # spread); CPU is the check's and its children's user+sys time, which load hardly changes.
    warm = _repeated("warm check (nothing changed)", check, env, repeat, lambda i: None)
    py_file = _first(touched, "*.py")
    one = _repeated(
        f"warm, after editing {_short(py_file)}", check, env, repeat, _appender(py_file, "# e{}\n")
    )
    xml_file = _first(touched, "*.xml")
    one_xml = (
        _repeated(
            f"warm, after editing {_short(xml_file)}",
            check,
            env,
            repeat,
            _appender(xml_file, "<!-- e{} -->\n"),
        )
        if xml_file
        else float("nan")
    )
    baseline, style = _oca_precommit(py_files, env, _series(addons))
    hooks = _timed(
        "oca-checks-odoo-module (reference)",
        [sys.executable, "-m", "oca_pre_commit_hooks", "--no-verbose", *[str(addons / n) for n in names]],
        env,
    )
    print()
    print(f"cold / warm (unchanged)       = {cold / warm:6.1f}x   (warm {warm:.2f} s)")
    print(f"cold / warm (one .py edited)  = {cold / one:6.1f}x   (warm {one:.2f} s; goal <= 1 s)")
    print(f"cold / warm (one .xml edited) = {cold / one_xml:6.1f}x   (warm {one_xml:.2f} s; goal <= 1 s)")
    print(f"cold / OCA pre-commit way    = {cold / baseline:6.2f}x  (goal <= 1.0x; pylint x2 + {style})")
    print(f"cold / (OCA way + oca hooks) = {cold / (baseline + hooks):6.2f}x")


def _first(module: Path, pattern: str) -> Path | None:
    return next(iter(sorted(module.rglob(pattern))), None)


def _short(path: Path | None) -> str:
    return "/".join(path.parts[-3:]) if path else "-"


def _appender(path: Path | None, line: str) -> Callable[[int], None]:
    """An edit per repetition: append a different line (content and size change)."""

    def edit(i: int) -> None:
        if path is not None:
            path.write_text(path.read_text(encoding="utf-8") + line.format(i), encoding="utf-8")

    return edit


def _repeated(
    label: str, argv: list[str], env: dict[str, str], repeat: int, prepare: Callable[[int], None]
) -> float:
    walls, cpus = [], []
    for i in range(repeat):
        prepare(i)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        result = _run(argv, env)
        walls.append(time.monotonic() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if result.returncode not in (0, 1):
            raise SystemExit(f"{label}: the check failed (exit {result.returncode}): {result.stderr[-500:]}")
    wall = statistics.median(walls)
    spread = f"min {min(walls):.2f}, max {max(walls):.2f}; cpu {statistics.median(cpus):.2f} s"
    print(f"{label:<46} {wall:7.2f} s   (median of {repeat}: {spread})")
    return wall


def _series(addons: Path) -> str:
    """The series most manifests of the tree are written for (the template's pick depends on it)."""
    found = [series_of_version(a.manifest.version) for a in discover_addons([addons]).addons.values()]
    series = [s for s in found if s]
    return max(set(series), key=series.count) if series else "18.0"


def _oca_precommit(py_files: list[str], env: dict[str, str], series: str) -> tuple[float, str]:
    pylint = [sys.executable, "-m", "pylint", f"--valid-odoo-versions={series}", "--score=n"]
    started = time.monotonic()
    _timed(
        "  pylint --rcfile=.pylintrc --exit-zero",
        [*pylint, f"--rcfile={DEFAULT_PYLINTRC}", "--exit-zero", *py_files],
        env,
    )
    _timed(
        "  pylint --rcfile=.pylintrc-mandatory",
        [*pylint, f"--rcfile={DEFAULT_PYLINTRC_MANDATORY}", *py_files],
        env,
    )
    if int(series.split(".")[0]) >= 17:  # OCA's template: ruff instead of flake8 (use_ruff)
        style = "ruff"
        ruff = [sys.executable, "-m", "ruff", "check", "--no-fix", "--no-cache", f"--config={DEFAULT_RUFF}"]
        _timed("  ruff check (the template's .ruff.toml)", [*ruff, *py_files], env)
    else:
        style = "flake8"
        chunks = [py_files[i::CORES] for i in range(CORES) if py_files[i::CORES]]
        flake8 = [sys.executable, "-m", "flake8", f"--config={DEFAULT_FLAKE8}"]
        chunk_started = time.monotonic()
        with ThreadPoolExecutor(CORES) as pool:
            list(pool.map(lambda chunk: _run([*flake8, *chunk], env), chunks))
        print(f"  {'flake8 (files split over the cores)':<44} {time.monotonic() - chunk_started:7.2f} s")
    total = time.monotonic() - started
    print(f"{f'OCA pre-commit way (pylint x2 + {style})':<46} {total:7.2f} s   (series {series})")
    return total, style


def _timed(label: str, argv: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    result = _run(argv, env)
    seconds = time.monotonic() - started
    print(f"{label:<46} {seconds:7.2f} s   (exit {result.returncode})")
    return seconds


def _run(argv: list[str], env: dict[str, str]) -> ProcessResult:
    return run_process_sync(argv, env=env, cwd=REPO, timeout=3600)


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update({"CI": "true", "ASSISTA_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"})
    return env


def _copy_real(source: Path, target: Path, count: int) -> str | None:
    roots = [source / "odoo" / "addons", source / "addons", source]
    root = next((r for r in roots if r.is_dir() and any(r.glob("*/__manifest__.py"))), None)
    if root is None:
        return None
    modules = sorted(p.parent.name for p in root.glob("*/__manifest__.py"))
    modules = [m for m in modules if not m.startswith(("l10n_", "test_", "hw_")) and m != "base"]
    step = max(1, len(modules) // count)
    target.mkdir(parents=True)
    for name in modules[::step][:count]:
        shutil.copytree(root / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "static"))
    return str(root)


def _generate(target: Path, count: int) -> None:
    """Addons shaped like real ones: a model with fields and methods, views, ACLs, a test."""
    for i in range(count):
        name = f"bench_addon_{i:03d}"
        folder = target / name
        (folder / "models").mkdir(parents=True)
        (folder / "views").mkdir()
        (folder / "security").mkdir()
        (folder / "tests").mkdir()
        depends = ["base"] if i == 0 else [f"bench_addon_{i - 1:03d}"]
        manifest = {
            "name": name,
            "version": "18.0.1.0.0",
            "license": "LGPL-3",
            "depends": depends,
            "data": ["security/ir.model.access.csv", "views/views.xml"],
        }
        (folder / "__manifest__.py").write_text(pprint.pformat(manifest, width=80) + "\n", encoding="utf-8")
        (folder / "__init__.py").write_text("from . import models\n", encoding="utf-8")
        (folder / "models" / "__init__.py").write_text("from . import thing\n", encoding="utf-8")
        (folder / "models" / "thing.py").write_text(_model_source(i), encoding="utf-8")
        (folder / "tests" / "__init__.py").write_text("", encoding="utf-8")
        model = f"bench.thing{i}"
        acl = "id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink\n"
        acl += f"access_thing{i},thing{i},model_bench_thing{i},base.group_user,1,1,1,1\n"
        (folder / "security" / "ir.model.access.csv").write_text(acl, encoding="utf-8")
        views = (
            '<?xml version="1.0" encoding="UTF-8" ?>\n<odoo>\n'
            f'  <record id="thing{i}_list" model="ir.ui.view">\n'
            f'    <field name="model">{model}</field>\n'
            '    <field name="arch" type="xml"><list><field name="name" /></list></field>\n'
            "  </record>\n</odoo>\n"
        )
        (folder / "views" / "views.xml").write_text(views, encoding="utf-8")


def _model_source(i: int) -> str:
    methods = "\n".join(
        f"    def action_step_{k}(self):\n"
        f"        for record in self:\n"
        f"            record.amount = record.amount + {k}\n"
        f"        return True\n"
        for k in range(25)
    )
    return (
        "from odoo import api, fields, models\n\n\n"
        f"class Thing{i}(models.Model):\n"
        f'    _name = "bench.thing{i}"\n'
        f'    _description = "Thing {i}"\n\n'
        "    name = fields.Char(required=True)\n"
        "    amount = fields.Float()\n"
        '    total = fields.Float(compute="_compute_total", store=True)\n\n'
        '    @api.depends("amount")\n'
        "    def _compute_total(self):\n"
        "        for record in self:\n"
        "            record.total = record.amount * 2\n\n" + methods
    )


if __name__ == "__main__":
    sys.exit(main())

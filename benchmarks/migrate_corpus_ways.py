"""How benchmarks/migrate_corpus.py migrates one module each way (a version bump, odoo-module-migrator
0.5.0 or its master, Odoo's upgrade_code alone, ours with or without sources), reads a corpus list,
and times migration itself against a baseline run in the same process (``--migrate-only``)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrate_corpus_report import time_summary

from odoo_tools.addons import detect_series
from odoo_tools.migrate import migrate
from odoo_tools.series import Series

WAYS = ("unchanged", "omm", "omm-master", "upgrade_code", "nosource", "ours")
_VERSION = re.compile(r"""(["']version["']\s*:\s*)(["'])[^"']*(["'])""")
# odoo-module-migrator 0.5.0 from PyPI, and its upstream master (installed from a fetched snapshot),
# each in a venv of its own outside the checkout
MIGRATOR = Path(os.environ.get("ASSISTA_BENCH_OMM") or Path(sys.executable).parent / "odoo-module-migrate")
MIGRATOR_MASTER = Path(os.environ.get("ASSISTA_BENCH_OMM_MASTER") or "/nonexistent/odoo-module-migrate")
MIGRATOR_LAST = "18.0"  # the newest series odoo-module-migrator 0.5.0 migrates to


def read_corpus(path: Path, limit: int | None) -> list[Path]:
    folders = [Path(line.split("\t")[0].strip()) for line in path.read_text().splitlines() if line.strip()]
    folders = [f for f in folders if (f / "__manifest__.py").is_file()]
    if limit and limit < len(folders):  # spread over the whole list: every repository gets its share
        step = len(folders) / limit
        folders = [folders[int(i * step)] for i in range(limit)]
    return folders


def has_tests(folder: Path) -> bool:
    return any(folder.glob("tests/test_*.py"))


def depends_of(folder: Path) -> tuple[str, ...]:
    import ast

    manifest = ast.literal_eval((folder / "__manifest__.py").read_text())
    return tuple(sorted(manifest.get("depends", [])))


def bump_only(folder: Path, target: str) -> None:
    manifest = folder / "__manifest__.py"
    manifest.write_text(_VERSION.sub(rf"\g<1>\g<2>{target}.1.0.0\g<3>", manifest.read_text(), count=1))


def run_migrator(root: Path, module: str, source: str, target: str, migrator: Path = MIGRATOR) -> str:
    """OCA's migrator on the copy; '' when it ran, else why not."""
    if not migrator.exists():
        return f"{migrator} is not installed"
    argv = [
        str(migrator),
        "-d",
        str(root),
        "-m",
        module,
        "-i",
        source,
        "-t",
        target,
        "--no-commit",
        "--no-pre-commit",
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    return ""


def migrate_way(
    way: str,
    source_folder: Path,
    root: Path,
    source: str,
    target: str,
    odoo_src: Path,
    from_odoo_src: Path | None = None,
) -> dict[str, Any]:
    """Migrate a copy beside the addons folder, then move it in: a run stopped half-way never
    leaves an old-series manifest on the addons path (Odoo would refuse every later install)."""
    staging = root.parent / f".staging-{root.name}"
    copy = staging / source_folder.name
    shutil.rmtree(copy, ignore_errors=True)
    staging.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source_folder, copy, symlinks=True, ignore=shutil.ignore_patterns(".git", "__pycache__"))
    started = time.monotonic()
    note = ""
    rules: dict[str, int] = {}
    findings = 0
    if way == "unchanged":
        bump_only(copy, target)
    elif way in ("omm", "omm-master"):
        note = run_migrator(staging, copy.name, source, target, MIGRATOR if way == "omm" else MIGRATOR_MASTER)
        if note:
            bump_only(copy, target)
    elif way == "upgrade_code":
        rules = upgrade_code_only(copy, odoo_src)
    else:
        sources: dict[Series, Path] = {}
        for odoo in (odoo_src, from_odoo_src) if way == "ours" else ():
            major = detect_series(odoo_path=odoo).major if odoo is not None else None
            if odoo is not None and major is not None:
                sources[Series(major)] = odoo
        report = migrate([copy], target, write=True, odoo_sources=sources)
        [module] = report.modules
        rules = module.rules_applied
        findings = len(module.findings)
    seconds = round(time.monotonic() - started, 2)
    digest = tree_digest(copy)
    shutil.rmtree(root / copy.name, ignore_errors=True)
    copy.rename(root / copy.name)
    return {"migrate_seconds": seconds, "note": note, "rules": rules, "findings": findings, "digest": digest}


def upgrade_code_only(folder: Path, odoo_src: Path) -> dict[str, int]:
    """Odoo's own upgrade_code scripts of the target source, then the version bump: what
    ``odoo-bin upgrade_code`` and a manifest edit give without us."""
    from odoo_tools.migrate.engine.manifest_step import bump_version
    from odoo_tools.migrate.engine.module_files import ModuleFiles
    from odoo_tools.migrate.engine.report import StepReport
    from odoo_tools.migrate.engine.upgrade_code import run_upgrade_code

    files = ModuleFiles.read(folder)
    before, deleted = dict(files.texts), set(files.deleted)
    target = Series(detect_series(odoo_path=odoo_src).major or 0)
    report = StepReport(files.name, Series(target.major - 1), target)
    run_upgrade_code(files, odoo_src, report)
    bump_version(files, report)
    files.write(files.changes(before, deleted))
    return dict(report.applied)


def same_files_proved(entry: dict[str, Any], digest: str) -> dict[str, Any] | None:
    """Another way's result with the very same migrated files: its install and tests are this way's."""
    for result in entry.values():
        if isinstance(result, dict) and result.get("digest") == digest and "proof" in result:
            return dict(result["proof"])
    return None


def tree_digest(folder: Path) -> str:
    """What the migrated module is, file names and bytes: equal digests install and test alike."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def time_migrations(
    modules: list[Path], ways: list[str], root: Path, source: str, target: str, odoo_src: Path
) -> int:
    """How long migration itself takes per module, warm: the first module of a way pays for loading
    the packs (once per run), so it is said apart from the others' median, p90 and max. The CPU time
    is said too: on a shared machine the wall clock mostly measures the other processes. Beside it,
    the baseline run in the same process just before each migration: reading the module's files and
    parsing each Python file once with libcst (what no migration can do without), and the ratio of
    the two, which the machine's load moves much less than either."""
    root.mkdir(parents=True, exist_ok=True)
    for way in ways:
        seconds, cpu, base, slowest = [], [], [], []
        for folder in modules:
            base.append(parse_baseline(folder))
            started = time.process_time()
            seconds.append(migrate_way(way, folder, root, source, target, odoo_src)["migrate_seconds"])
            cpu.append(round(time.process_time() - started, 2))
            slowest.append((cpu[-1], folder.name, base[-1]))
            shutil.rmtree(root / folder.name, ignore_errors=True)
        ratios = [c / max(b, 0.01) for c, b in zip(cpu, base, strict=True)]
        print(f"{way}: {len(seconds)} modules, wall: {time_summary(seconds)}")
        print(f"{way}: {len(cpu)} modules, CPU (this process): {time_summary(cpu)}")
        print(f"{way}: baseline (read + parse each .py once), CPU: {time_summary(base)}")
        print(
            f"{way}: migration / baseline: {time_summary(ratios, unit='x')}; whole run "
            f"{sum(cpu[1:]) / max(sum(base[1:]), 0.01):.1f}x ({sum(cpu[1:]):.1f} s / {sum(base[1:]):.1f} s "
            "after the first module)"
        )
        print(
            f"{way}: most CPU: "
            + ", ".join(f"{name} {s:.2f} s ({s / max(b, 0.01):.1f}x)" for s, name, b in sorted(slowest)[-5:])
        )
        print(f"{way}: over 5 s CPU after the first: {sum(c > 5 for c in cpu[1:])} of {len(cpu) - 1}")
    return 0


def parse_baseline(folder: Path) -> float:
    """CPU seconds to read ``folder``'s files and parse each Python file once with libcst."""
    import libcst as cst

    from odoo_tools.migrate.engine.module_files import ModuleFiles

    started = time.process_time()
    for rel, text in ModuleFiles.read(folder).texts.items():
        if rel.endswith(".py"):
            with contextlib.suppress(cst.ParserSyntaxError):  # the migration says so, not this
                cst.parse_module(text)
    return round(time.process_time() - started, 3)

"""Judging a corpus module on a real Odoo (``benchmarks/check_precision.py judge``): install it, and
its dependency closure, with plain ``odoo-bin -i`` in a new database, read its state, record the
verdict (a pure move out of that script)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import load_json, save_json

INSTALL_TIMEOUT_SECONDS = 1200
_FIRST_ERROR = re.compile(r"^\S+ \S+ \d+ (ERROR|CRITICAL) .*$", re.M)
# Odoo refused a module of the closure for a Python package the lab lacks: no verdict on the module.
_UNMET = re.compile(r"because an external dependency is not met")


def results_dir(corpus: Path) -> Path:
    return corpus / "results"


def closure(modules: list[str], root: Path) -> list[str]:
    index = load_json(root / "modules.json", {})
    depends = {m: e["depends"] for m, e in index.items()}
    seen, stack = set(modules), list(modules)
    while stack:
        for dep in depends.get(stack.pop(), []):
            if dep in depends and dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return sorted(seen)


def judge(corpus: Path, series: str, modules: list[str], demo: bool) -> None:
    """Install ``modules`` together in one database; those left uninstalled by a failure are
    installed again together, and one by one once a round installs nothing more."""
    index = load_json(corpus / series / "modules.json", {})
    todo = [m for m in modules if m in index]
    for module in sorted(set(modules) - set(todo)):
        print(f"{module}: not in the {series} corpus")
    while len(todo) > 1:
        states, info = install(corpus, series, todo, demo)
        done = [m for m in todo if states.get(m) == "installed"]
        record(corpus, series, {m: {**info, "installed": True, "state": "installed"} for m in done})
        todo = [m for m in todo if m not in done]
        if not done:
            break
    for module in todo:
        states, info = install(corpus, series, [module], demo)
        state = states.get(module, "absent")
        installed: bool | None = state == "installed"
        if not installed and info.get("unmet"):
            installed, state = None, "not judged: an external dependency is missing on this Odoo"
        record(corpus, series, {module: {**info, "installed": installed, "state": state}})


def install(
    corpus: Path, series: str, modules: list[str], demo: bool
) -> tuple[dict[str, str], dict[str, Any]]:
    """``odoo-bin -i`` of ``modules`` in a new database, dropped after: (module -> state, run info)."""
    odoo_bin = os.environ["ASSISTA_BENCH_ODOO_BIN"]
    python = os.environ.get("ASSISTA_BENCH_ODOO_PYTHON", sys.executable)
    root = corpus.absolute() / series
    with tempfile.TemporaryDirectory(prefix="judge-") as links:
        for name in closure(modules, root):
            os.symlink(root / name, Path(links) / name)
        # our own prefix on the shared cluster; a copy of a template database (one with base
        # installed, ASSISTA_BENCH_TEMPLATE_DB) spares installing base each time
        db = f"{os.environ.get('ASSISTA_BENCH_DB_PREFIX', 'corpora_judge')}_{os.getpid()}"
        template = os.environ.get("ASSISTA_BENCH_TEMPLATE_DB")
        if template:
            subprocess.run(["dropdb", "--if-exists", db], capture_output=True)
            subprocess.run(["createdb", "-T", template, db], capture_output=True, check=True)
        addons = f"{os.environ['ASSISTA_BENCH_ODOO_ADDONS']},{links}"
        cmd = [python, odoo_bin, "--addons-path", addons, "-d", db, "-i", ",".join(modules)]
        cmd += ["--stop-after-init", "--no-http", "--log-level=info"]
        cmd += demo_flags(series, demo)
        for key, opt in (
            ("PGHOST", "--db_host"),
            ("PGPORT", "--db_port"),
            ("PGUSER", "-r"),
            ("PGPASSWORD", "-w"),
        ):
            if key in os.environ:
                cmd += [opt, os.environ[key]]
        started = time.monotonic()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SECONDS)
            log, rc = proc.stdout + proc.stderr, proc.returncode
        except subprocess.TimeoutExpired:
            log, rc = "timeout", -1
        states = module_states(db, modules)
        subprocess.run(["dropdb", "--if-exists", db], capture_output=True)
    first = _FIRST_ERROR.search(log)
    if rc != 0:  # why it failed, beyond the first line ("Failed to load registry" says little)
        kept = results_dir(corpus) / "logs" / f"judge-{series}-{modules[0]}{'-etc' * (len(modules) > 1)}.log"
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text("\n".join(log.splitlines()[-300:]), encoding="utf-8")
    shown = ["***" if prev == "-w" else c for prev, c in zip(["", *cmd], cmd, strict=False)]
    info: dict[str, Any] = {
        "rc": rc,
        "demo": demo,
        "together": len(modules),
        "seconds": round(time.monotonic() - started, 1),
        "first_error": first.group(0)[:600] if first else "",
        "unmet": bool(_UNMET.search(log)),
        "command": " ".join(shown),
    }
    print(
        f"{len(modules)} module(s), {info['seconds']} s, rc {rc}: {states} {info['first_error'][:300]}",
        flush=True,
    )
    return states, info


def demo_flags(series: str, demo: bool) -> list[str]:
    """Demo data is on by default up to 18.0 and opt-in from 19.0 (``--with-demo``)."""
    if int(series.split(".")[0]) >= 19:
        return ["--with-demo"] if demo else []
    return [] if demo else ["--without-demo=all"]


def record(corpus: Path, series: str, verdicts: dict[str, dict[str, Any]]) -> None:
    path = results_dir(corpus) / f"judged-{series}.json"
    save_json(path, {**load_json(path, {}), **verdicts})


def module_states(db: str, modules: list[str]) -> dict[str, str]:
    names = ",".join(f"'{m}'" for m in modules if re.fullmatch(r"\w+", m))
    query = f"select name, state from ir_module_module where name in ({names})"
    proc = subprocess.run(["psql", "-d", db, "-tAc", query], capture_output=True, text=True)
    return dict(line.split("|", 1) for line in proc.stdout.splitlines() if "|" in line)

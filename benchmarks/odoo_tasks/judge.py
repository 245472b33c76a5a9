"""The judge: plain odoo-bin of the task's series installs the module and runs its tests.

Nothing of assista-odoo takes part (a benchmark of our tools must not be judged by them): the
database is copied with ``createdb -T`` from a template that holds the task's core dependencies
(made once per series and dependency set, ``bench_tpl_*``), the module is installed with
``--test-enable --test-tags /<module>``, and each test's outcome is read from Odoo's own log lines:
``Starting Class.method ...`` then, on failure, ``FAIL: Class.method`` / ``ERROR: Class.method``.
A test that never started (the install failed, its class' setUp broke) did not pass.
"""

from __future__ import annotations

import configparser
import hashlib
import os
import re
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.odoo_tasks.tasks_io import Task
from odoo_tools.series import core_graph

STARTED = re.compile(r": Starting (?:Subtest )?(\w+\.\w+)\b")
FAILED = re.compile(r": (?:FAIL|ERROR): (?:Subtest )?(\w+\.\w+)\b")
# Databases are named <prefix>tpl_* (templates, kept) and <prefix><task> (dropped after each run).
DB_PREFIX = os.environ.get("ASSISTA_BENCH_DB_PREFIX", "bench_")
RUN_TIMEOUT = 1200  # seconds for one odoo-bin run (an install with tests on a loaded machine)


@dataclass(frozen=True)
class Odoo:
    """How to run one series' odoo-bin: its interpreter, the script, an optional config file."""

    series: str
    python: str
    odoo_bin: str
    conf: str | None = None

    def addons_path(self) -> list[str]:
        if not self.conf:
            return []
        parser = configparser.ConfigParser()
        parser.read(self.conf)
        raw = parser.get("options", "addons_path", fallback="")
        return [p.strip() for p in raw.split(",") if p.strip()]

    def command(self, db: str, addons: Path | None, *args: str) -> list[str]:
        cmd = ["nice", "-n", "10", self.python, self.odoo_bin]
        if self.conf:
            cmd += ["-c", self.conf]
        paths = self.addons_path() + ([str(addons)] if addons else [])
        if paths:
            cmd.append("--addons-path=" + ",".join(paths))
        if self.series.split(".")[0].isdigit() and int(self.series.split(".")[0]) >= 19:
            cmd.append("--with-demo")  # 19.0 loads demo data only when asked; OCA's CI tests with it
        return [*cmd, "-d", db, "--stop-after-init", "--log-level=info", *args]


@dataclass
class Verdict:
    resolved: bool
    tests: dict[str, str] = field(default_factory=dict)  # "Class.method" -> passed | failed | not run
    reason: str = ""
    seconds: float = 0.0
    log_tail: str = ""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _psql(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=600)


def template_for(odoo: Odoo, task: Task, data_dir: Path) -> str:
    """The template database holding the task's core dependencies (made on first use)."""
    core = sorted(_core_closure(task))
    key = hashlib.sha256(",".join(core).encode()).hexdigest()[:10]
    name = f"{DB_PREFIX}tpl_{task.series.replace('.', '')}_{key}"
    listed = _psql("psql", "-d", "postgres", "-Atc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'")
    if listed.stdout.strip() == "1":
        return name
    building = name + "_new"
    _psql("dropdb", "--if-exists", building)
    done = subprocess.run(
        odoo.command(building, None, "-i", ",".join(core or ["base"]), f"--data-dir={data_dir}"),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    if done.returncode != 0:
        _psql("dropdb", "--if-exists", building)
        raise RuntimeError(f"template {name} failed: {done.stderr[-2000:]}")
    renamed = _psql("psql", "-d", "postgres", "-c", f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    if renamed.returncode != 0:
        raise RuntimeError(renamed.stderr)
    return name


def _core_closure(task: Task) -> set[str]:
    """The task's direct dependencies that are core modules; same-repo ones (and what they need
    beyond) are installed with the task itself."""
    return {d for d in task.depends if d in core_graph(task.series).depends}


def judge(odoo: Odoo, task: Task, addons: Path, work: Path) -> Verdict:
    """Install the task's module from ``addons`` (the change and the hidden tests applied) and read
    each FAIL_TO_PASS and PASS_TO_PASS test's outcome."""
    started = time.monotonic()
    data_dir = work / "data"
    template = template_for(odoo, task, data_dir)
    # A wheel task's commit is a version: the database is named by a digest of the task's id.
    tag = hashlib.sha256(task.id.encode()).hexdigest()[:8]
    db = f"{DB_PREFIX}{task.series.replace('.', '')}_{tag}_{os.getpid()}"
    _psql("dropdb", "--if-exists", db)
    made = _psql("createdb", "-T", template, db)
    if made.returncode != 0:
        return Verdict(False, reason=f"createdb failed: {made.stderr.strip()}")
    try:
        args = ["-i", task.module, "--test-enable", f"--test-tags=/{task.module}"]
        args += [f"--http-port={_free_port()}", f"--data-dir={data_dir}"]
        try:
            done = subprocess.run(
                odoo.command(db, addons, *args), capture_output=True, text=True, timeout=RUN_TIMEOUT
            )
            log = done.stdout + done.stderr
        except subprocess.TimeoutExpired as exc:
            tail = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr or ""
            log = f"timeout after {RUN_TIMEOUT}s\n{tail}"
    finally:
        _psql("dropdb", "--if-exists", db)
    (work / "judge.log").write_text(log, encoding="utf-8")
    return verdict_of(task, log, time.monotonic() - started)


def verdict_of(task: Task, log: str, seconds: float) -> Verdict:
    started = set(STARTED.findall(log))
    failed = set(FAILED.findall(log))
    tests: dict[str, str] = {}
    for name in [*task.fail_to_pass, *task.pass_to_pass]:
        tests[name] = "failed" if name in failed else "passed" if name in started else "not run"
    broken = [n for n in tests if tests[n] != "passed"]
    reason = ""
    if broken:
        reason = f"{len(broken)} of {len(tests)} tests not passing: " + ", ".join(broken[:5])
    if "Failed to load registry" in log or ("Traceback" in log and not started):
        reason = "install failed; " + reason
    tail = "\n".join(log.splitlines()[-30:]) if broken else ""
    return Verdict(not broken, tests, reason, round(seconds, 1), tail)

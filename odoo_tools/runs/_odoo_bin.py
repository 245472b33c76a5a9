"""Find the user's odoo-bin, read its version, build its command line and environment, run it.

odoo-bin runs in the user's Odoo environment (``--odoo-python``), never in ours. Its child
environment is built from scratch: locale, PATH and the database variables it needs, nothing
else, so our own secrets (model API keys...) never reach it; the database password travels in
``PGPASSWORD``, never on the command line where ``ps`` would show it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import AssistaError, ProcessFailed, ToolMissing
from odoo_tools.process import run_process
from odoo_tools.runs._externals import interpreter_of
from odoo_tools.runs._pg import PgParams
from odoo_tools.series import SeriesFacts, series_facts, series_major

LineCallback = Callable[[str], None]
BIN_NAMES = ("odoo-bin", "odoo")
# Variables a child Odoo legitimately needs from our environment; everything else is dropped.
PASSED_ENV = ("PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "USER", "LOGNAME", "VIRTUAL_ENV")
_VERSION = re.compile(r"(saas~)?(\d+)\.(\d+)")


@dataclass(frozen=True)
class OdooBin:
    """A runnable Odoo: the script, the interpreter to run it with, its version."""

    path: Path
    python: str | None
    version: str  # as printed, e.g. "18.0-20241005"
    series: str  # "18.0", or "saas~17.4"
    major: int
    core_addons: tuple[Path, ...] = ()  # Odoo's own addons folders for --addons-path

    def command(self) -> list[str]:
        return [self.python, str(self.path)] if self.python else [str(self.path)]

    @property
    def facts(self) -> SeriesFacts:
        """What this Odoo's series does; a series we do not support is bad input naming ours."""
        return series_facts(self.series)


@dataclass(frozen=True)
class RunSpec:
    """One odoo-bin run against one database."""

    database: str
    install: Sequence[str] = ()
    update: Sequence[str] = ()
    test_modules: Sequence[str] = ()  # run only these modules' tests (--test-tags /m)
    demo: bool = False
    http_port: int | None = None  # required with test_modules; see free_port()


@dataclass(frozen=True)
class OdooRun:
    argv: tuple[str, ...]
    returncode: int
    log: str  # stdout and stderr lines in arrival order
    seconds: float
    timed_out: bool = False


def find_odoo_bin(
    explicit: Path | str | None = None,
    *,
    conf_addons_paths: Sequence[Path] = (),
    search_path: str | None = None,
) -> Path:
    """``--odoo-bin`` / ``ASSISTA_ODOO_BIN`` (``explicit``) > next to odoo.conf's addons > PATH."""
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ToolMissing(
                f"odoo-bin {str(path)!r} does not exist.",
                "Check --odoo-bin / ASSISTA_ODOO_BIN / odoo_bin in assista-odoo.toml.",
            )
        return path
    for entry in conf_addons_paths:
        for folder in (entry.parent, entry.parent.parent):  # <src>/addons, <src>/odoo/addons
            candidate = folder / "odoo-bin"
            if candidate.is_file():
                return candidate
    for name in BIN_NAMES:
        found = shutil.which(name, path=search_path)
        if found:
            return Path(found)
    raise ToolMissing(
        "No odoo-bin found.",
        "Pass --odoo-bin PATH (and --odoo-python for its interpreter), set ASSISTA_ODOO_BIN, "
        'add odoo_bin = "..." to assista-odoo.toml, or put odoo-bin on PATH.',
    )


def parse_version(text: str) -> tuple[str, str, int]:
    """``"Odoo Server 18.0-20241005"`` -> ("18.0-20241005", "18.0", 18)."""
    match = _VERSION.search(text)
    if not match:
        raise ProcessFailed(
            f"Cannot read an Odoo version from {text.strip()[:200]!r}.",
            "Check that --odoo-bin is an Odoo server script and --odoo-python its interpreter.",
        )
    version = text[match.start() :].split()[0]
    saas, major, minor = match.groups()
    series = f"saas~{major}.{minor}" if saas else f"{major}.0"
    return version, series, series_major(series) or 0


def core_addons_for(path: Path) -> tuple[Path, ...]:
    """Odoo's own addons folders next to a source checkout's odoo-bin."""
    src = Path(os.path.realpath(path)).parent
    return tuple(p for p in (src / "odoo" / "addons", src / "addons") if p.is_dir())


# Where the ``odoo`` package of an interpreter lives, found without importing it (nor anything
# else: the probe runs in a neutral folder).
_PACKAGE_PROBE = (
    "import importlib.util, json\n"
    "spec = importlib.util.find_spec('odoo')\n"
    "print(json.dumps(list(spec.submodule_search_locations or []) if spec else []))\n"
)


async def installed_core_addons(path: Path, python: str | None, timeout: float = 60.0) -> tuple[Path, ...]:
    """``<site-packages>/odoo/addons`` of a pip-installed Odoo (an ``odoo`` console script, or
    ``odoo`` importable by ``--odoo-python``); () when there is none."""
    interpreter = interpreter_of(path, python)
    if interpreter is None:
        return ()
    with tempfile.TemporaryDirectory(prefix="assista-probe-") as neutral:
        try:
            result = await run_process(
                [interpreter, "-c", _PACKAGE_PROBE],
                env=child_env(PgParams(), os.environ),
                timeout=timeout,
                cwd=Path(neutral),
            )
        except AssistaError:
            return ()
    try:
        locations = json.loads(result.stdout.strip().splitlines()[-1]) if result.returncode == 0 else []
    except (ValueError, IndexError):
        return ()
    if not isinstance(locations, list):
        return ()
    return tuple(p for p in (Path(str(loc)) / "addons" for loc in locations) if (p / "base").is_dir())


_INSPECTED: dict[tuple[str, str | None, float], OdooBin] = {}


async def inspect_odoo(path: Path, python: str | None = None, timeout: float = 120.0) -> OdooBin:
    """Run ``odoo-bin --version`` (once per script and interpreter) and describe the install."""
    key = (str(path), python, _mtime(path))
    if key in _INSPECTED:
        return _INSPECTED[key]
    argv = [python, str(path), "--version"] if python else [str(path), "--version"]
    result = await run_process(argv, env=child_env(PgParams(), os.environ), timeout=timeout)
    if result.returncode != 0:
        raise ProcessFailed(
            f"{' '.join(argv)} failed (exit {result.returncode}): {result.decisive_line()}",
            "Check --odoo-python (odoo_python in assista-odoo.toml): odoo-bin must run in the "
            "interpreter of the Odoo environment.",
        )
    version, series, major = parse_version(result.stdout + result.stderr)
    core = core_addons_for(path) or await installed_core_addons(path, python)
    odoo = OdooBin(path, python, version, series, major, core)
    _INSPECTED[key] = odoo
    return odoo


def _mtime(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now (tests bind it, so parallel runs differ)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def build_argv(
    odoo: OdooBin,
    spec: RunSpec,
    *,
    addons_paths: Sequence[Path],
    data_dir: Path,
    pg: PgParams,
) -> list[str]:
    """The full command line. No password on it: see ``child_env``."""
    paths = _unique([*(str(p) for p in addons_paths), *(str(p) for p in odoo.core_addons)])
    argv = [
        *odoo.command(),
        f"--addons-path={','.join(paths)}",
        f"--data-dir={data_dir}",
        f"--database={spec.database}",
        "--stop-after-init",
        "--log-level=info",
        "--max-cron-threads=0",
    ]
    argv += [f"--db_{k}={v}" for k, v in (("host", pg.host), ("port", pg.port), ("user", pg.user)) if v]
    if spec.install:
        argv += ["-i", ",".join(spec.install)]
    if spec.update:
        argv += ["-u", ",".join(spec.update)]
    with_demo, without_demo = odoo.facts.demo_flags
    argv += [flag for flag in (with_demo if spec.demo else without_demo,) if flag]
    if spec.test_modules:
        if spec.http_port is None:
            raise ProcessFailed("A test run needs an HTTP port.", "Pass http_port=free_port().")
        tags = ",".join(f"/{m}" for m in spec.test_modules)
        argv += ["--test-enable", f"--test-tags={tags}"]
        argv += [f"--http-port={spec.http_port}", "--http-interface=127.0.0.1"]
    else:
        argv.append("--no-http")
    return argv


def child_env(pg: PgParams, ours: Mapping[str, str], data_dir: Path | None = None) -> dict[str, str]:
    """A fresh environment for odoo-bin: the few variables it needs plus the database ones."""
    env = {k: ours[k] for k in PASSED_ENV if k in ours}
    env.update({k: v for k, v in ours.items() if k.startswith("LC_")})
    env["PYTHONUNBUFFERED"] = "1"  # log lines arrive as they are written (progress)
    if data_dir is not None:
        # Never read the user's ~/.odoorc: every option we rely on is on the command line.
        env["ODOO_RC"] = str(data_dir / "no-odoorc")
    env.update(pg.child_env())
    return env


async def run_odoo(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    timeout: float | None,
    on_line: LineCallback | None = None,
    cwd: Path | None = None,
) -> OdooRun:
    """Run one odoo-bin command; both streams are merged into one log in arrival order.

    Cancellation kills the whole process group (``run_process``) and propagates; the caller
    drops the database afterwards.
    """
    lines: list[str] = []

    def collect(line: str) -> None:
        lines.append(line)
        if on_line is not None:
            on_line(line)

    result = await run_process(
        argv, env=env, timeout=timeout, on_stdout_line=collect, on_stderr_line=collect, cwd=cwd
    )
    return OdooRun(
        argv=result.argv,
        returncode=result.returncode,
        log="\n".join(lines) + ("\n" if lines else ""),
        seconds=result.seconds,
        timed_out=result.timed_out,
    )


def _unique(items: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(os.path.realpath(item), item)
    return list(seen.values())
